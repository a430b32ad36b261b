from django.contrib import admin
from django.urls import include, path

from frontera.accounts.language import set_language

urlpatterns = [
    path("", include("frontera.campaigns.urls")),
    path("", include("frontera.characters.urls")),
    path("", include("frontera.play.urls")),
    path("cuentas/", include("frontera.accounts.urls")),
    path("live/", include("frontera.live.urls")),
    path("mesas/", include("cardgames.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
]
