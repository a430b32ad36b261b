"""Django's own messages that people read on our pages, listed so that ``makemessages`` puts them
in our catalogues (``locale/``, which wins over Django's): the Spanish UI says "tú" everywhere
(issue #12), where Django's Spanish says "usted". Nothing imports this module; the strings are
Django's msgids, word for word."""

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_MESSAGES = (
    gettext_noop("Enter a valid value."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters.", "min_length"),
    ngettext_lazy("Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
                  "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).", "limit_value"),
)
