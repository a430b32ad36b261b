from django.urls import path

from frontera.campaigns import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campanas/", views.campaign_list, name="campaign_list"),
    path("campanas/<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campanas/<int:pk>/invitaciones/", views.invite_new, name="invite_new"),
    path("campanas/<int:pk>/invitaciones/<int:invite_id>/revocar/", views.invite_cancel, name="invite_revoke"),
    path("invitacion/<str:token>/", views.invite_join, name="invite_join"),
]
