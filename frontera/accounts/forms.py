from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"),
        required=True,
        help_text=_("Only used to reset your password and to send you invitations."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("There is already an account with this e-mail."))
        return email

    def validate_password_for_user(self, user, password_field_name="password1"):
        """A weak password's reasons go under the password itself, not under its confirmation
        (Django's default: a walk read "too common" beside "Password (again)")."""
        super().validate_password_for_user(user, password_field_name=password_field_name)
