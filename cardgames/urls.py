from django.urls import path

from cardgames import views

urlpatterns = [
    path("", views.index, name="cardgames_index"),
    path("mesa/<int:pk>/", views.table_page, name="cardgames_table"),
    path("mesa/<int:pk>/jugar/", views.table_play, name="cardgames_play"),
    path("mesa/<int:pk>/sentarse/", views.table_join, name="cardgames_join"),
    path("mesa/<int:pk>/levantarse/", views.table_leave, name="cardgames_leave"),
    path("mesa/<int:pk>/revancha/", views.table_rematch, name="cardgames_rematch"),
    path("mesa/<int:pk>/despertar/", views.table_wake, name="cardgames_wake"),
    path("mesa/<int:pk>/invitacion/", views.table_invite, name="cardgames_invite_renew"),
    path("mesa/<int:pk>/repeticion/", views.table_replay, name="cardgames_replay"),
    path("invitacion/<str:token>/", views.invite, name="cardgames_invite"),
    path("<slug:name>/", views.game_rules, name="cardgames_game"),
    path("<slug:name>/nueva/", views.table_new, name="cardgames_new"),
]
