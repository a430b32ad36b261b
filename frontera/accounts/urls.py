from django.contrib.auth import views as auth_views
from django.urls import path

from frontera.accounts import views

urlpatterns = [
    path("entrar/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("salir/", auth_views.LogoutView.as_view(), name="logout"),
    path("registro/", views.signup, name="signup"),
    path("clave/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("clave/hecho/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("recuperar/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path("recuperar/enviado/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "recuperar/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("recuperar/hecho/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
