"""Under ``/api/``, every error answer is JSON, whoever produced it.

The API's own refusals are JSON already. What is not: the URL resolver's 404 for an
unknown address, the 405 for a method an address does not take, a 500 Django renders,
a 400 for a request Django could not read. Those are replaced here by the same
``{"error", "message"}`` shape, keeping headers such as ``Allow``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

from api.errors import error_response

PREFIX = "/api/"
CODES = {
    400: "bad_request",
    401: "unauthenticated",
    403: "not_allowed",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    429: "rate_limited",
}
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


def is_json(response: HttpResponseBase) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


def as_json(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    if not request.path_info.startswith(PREFIX) or response.status_code < 400 or is_json(response):
        return response
    status = response.status_code
    code = CODES.get(status, "server_error" if status >= 500 else "bad_request")
    replaced = error_response(code, status=status)
    for header in KEPT_HEADERS:
        if header in response:
            replaced[header] = response[header]
    return replaced


class JsonErrorsMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return as_json(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        pending: Awaitable[HttpResponseBase] = self.get_response(request)
        return as_json(request, await pending)
