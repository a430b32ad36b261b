from django.urls import path

from frontera.live import views

urlpatterns = [path("<str:topic>/", views.stream, name="live_stream")]
