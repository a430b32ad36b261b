from django.urls import path

from frontera.play import views

urlpatterns = [
    path("campanas/<int:pk>/sesiones/", views.session_list, name="play_sessions"),
    path("sesiones/<int:pk>/", views.session_page, name="play_session"),
    path("sesiones/<int:pk>/pruebas/", views.check_new, name="play_check_new"),
    path("sesiones/<int:pk>/enfrentadas/", views.opposed_new, name="play_opposed_new"),
    path("sesiones/<int:pk>/participantes/<int:participant_id>/robar/", views.participant_draw, name="play_draw"),
    path("sesiones/<int:pk>/participantes/<int:participant_id>/elegir/", views.participant_choose,
         name="play_choose"),
    path("sesiones/<int:pk>/fase-2/", views.phase_two, name="play_phase_two"),
    path("sesiones/<int:pk>/terminar/", views.session_end, name="play_session_end"),
    path("sesiones/<int:pk>/incorporar/", views.late_join, name="play_join"),
    path("sesiones/<int:pk>/personajes/", views.table_action, name="play_table_action"),
    path("sesiones/<int:pk>/combate/", views.combat_new, name="play_combat_new"),
    path("sesiones/<int:pk>/combate/<int:combat_id>/<int:character_id>/declarar/", views.combat_declare,
         name="play_combat_declare"),
    path("sesiones/<int:pk>/combate/<int:combat_id>/<int:character_id>/robar/", views.combat_draw,
         name="play_combat_draw"),
    path("sesiones/<int:pk>/combate/<int:combat_id>/<int:character_id>/elegir/", views.combat_choose,
         name="play_combat_choose"),
    path("sesiones/<int:pk>/combate/<int:combat_id>/<slug:step>/", views.combat_step, name="play_combat_step"),
    path("sesiones/<int:pk>/intercambios/", views.exchange_new, name="play_exchange_new"),
    path("sesiones/<int:pk>/intercambios/<int:exchange_id>/elegir/", views.exchange_choose,
         name="play_exchange_choose"),
    path("sesiones/<int:pk>/intercambios/<int:exchange_id>/anular/", views.exchange_cancel,
         name="play_exchange_cancel"),
    path("sesiones/<int:pk>/juego/", views.gamble_new, name="play_gamble_new"),
    path("sesiones/<int:pk>/juego/<int:gamble_id>/<slug:step>/", views.gamble_step, name="play_gamble_step"),
    path("sesiones/<int:pk>/atencion-medica/", views.medical_new, name="play_medical_new"),
]
