from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from frontera.accounts.forms import SignupForm
from frontera.accounts.services import user_create


def _safe_next(request) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return None


@require_http_methods(["GET", "POST"])
def signup(request):
    """Sign up and log in at once, then go where the user was heading (e.g. an invite link)."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or "campaign_list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend="frontera.accounts.backends.MemoryModelBackend")
        return redirect(_safe_next(request) or "campaign_list")
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request) or ""})
