from django.urls import path

from cardgames import views

urlpatterns = [
    path("", views.index, name="cardgames_index"),
    path("<slug:name>/", views.game_rules, name="cardgames_game"),
]
