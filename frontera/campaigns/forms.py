from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class CampaignForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3}))


class InviteForm(forms.Form):
    days = forms.IntegerField(label=_("Valid for (days)"), min_value=1, max_value=30, initial=settings.INVITE_DEFAULT_DAYS)
    max_uses = forms.IntegerField(label=_("Uses allowed"), min_value=1, max_value=50, initial=settings.INVITE_DEFAULT_USES)
    email = forms.EmailField(label=_("Send it to (optional)"), required=False)
