from django.urls import path

from frontera.characters import views

urlpatterns = [
    path("campanas/<int:pk>/personajes/", views.character_list, name="character_list"),
    path("campanas/<int:pk>/personajes/nuevo/", views.character_wizard, name="character_wizard"),
    path("campanas/<int:pk>/personajes/nuevo/<slug:step>/", views.character_wizard_step, name="character_wizard_step"),
    path("campanas/<int:pk>/personajes/pnj/", views.npc_new, name="npc_new"),
    path("campanas/<int:pk>/personajes/<int:character_id>/", views.character_sheet, name="character_sheet"),
    path("campanas/<int:pk>/personajes/<int:character_id>/imprimir/", views.character_print, name="character_print"),
    path("campanas/<int:pk>/personajes/<int:character_id>/editar/", views.character_edit, name="character_edit"),
    path("campanas/<int:pk>/equipo/", views.catalogue, name="character_catalogue"),
    path("campanas/<int:pk>/equipo/<int:item_id>/", views.catalogue_item_edit, name="catalogue_item_edit"),
]
