"""The how-to-play page (``/help/``): the Game of Thrones round, battles and tracks, the game
screen's controls, the 1st edition's differences and The Duke, in the visitor's language
(``templates/help/how_to_play.html``; its board excerpts are drawn in the browser by the game
screen's own code, ``static/js/help.js``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


def how_to_play(request: HttpRequest) -> HttpResponse:
    return render(request, "help/how_to_play.html", {"lobbies": reverse("lobby_list")})
