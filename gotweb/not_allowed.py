"""A page for a GET of an address that only a form's button may send (HTTP 405).

Django answers such a request (``require_POST``, ``LogoutView``) with an empty 405 response: a
visitor who types ``/accounts/logout/`` or reopens ``/lobby/7/join/`` from the history saw a blank
page. :class:`MethodNotAllowedPage` gives that empty answer a body, ``templates/405.html``, in the
site's look and the visitor's language, with the links home (and a "Log out" button on the
logout address, which is what its visitor came for). The status (405) and the ``Allow`` header
stay; any other response, and a 405 that already has a body, pass through untouched.

It sits last in ``MIDDLEWARE`` (the first to see the response), inside the session, locale and
authentication middleware whose request attributes the template uses.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse


class MethodNotAllowedPage:
    """Django middleware: an empty 405 answer to a GET becomes ``405.html`` (status and
    ``Allow`` kept)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or request.method != "GET" or response.streaming or response.content:
            return response
        page = render(request, "405.html", {"logout": request.path == reverse("logout")}, status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
