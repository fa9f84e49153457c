"""JSON everywhere under /api/ (unknown addresses, wrong methods, crashes), the word
look-up, and the documentation: the OpenAPI document and a docs page that loads
nothing from elsewhere."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from api import v1
from dictionaries.models import Dictionary, WordChange

pytestmark = pytest.mark.django_db


def test_unknown_addresses_and_methods_are_json(api_as: Any, ana: Any) -> None:
    api = api_as(ana)
    for response, status, code in [
        (api.get("/nothing/here"), 404, "not_found"),
        (api.get("/games/abc"), 404, "not_found"),
        (api.get("/account/"), 404, "not_found"),
        (api.post("/account"), 405, "method_not_allowed"),
        (api.get("/games/1/play"), 405, "method_not_allowed"),
        (Client().delete("/api/v1/token"), 405, "method_not_allowed"),
        (Client().get("/api/v2/anything"), 404, "not_found"),
    ]:
        assert response.status_code == status
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["error"] == code
    assert api.post("/account")["Allow"] == "GET"


def test_pages_outside_the_api_keep_their_html_errors(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_crash_is_a_json_500(api_as: Any, ana: Any, monkeypatch: Any, caplog: Any) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(v1, "look_up", broken)
    response = api_as(ana).get("/words/en/cat")
    assert response.status_code == 500
    assert response.json() == {
        "error": "server_error",
        "message": "Something went wrong on our side. Please try again later.",
    }
    assert "boom" not in response.content.decode()
    assert "API error on GET /api/v1/words/en/cat" in caplog.text


def test_word_look_up(api_as: Any, ana: Any) -> None:
    api = api_as(ana)
    cats = api.get("/words/en/cats").json()
    assert cats["valid"] is True
    assert cats["normalized"] == "CATS"
    assert cats["value"] == 7
    assert cats["definitions_available"] is True
    assert cats["meanings"][0]["base"] == "cat"
    assert cats["meanings"][0]["part_of_speech"] == "noun"
    assert cats["meanings"][0]["glosses"]
    assert cats["meanings"][0]["form"] == "cats"
    knows = api.get("/words/es/conozco").json()["meanings"][0]
    assert (knows["form"], knows["base"], knows["glosses"]) == ("conozco", "conocer", ["know"])
    assert api.get("/words/en/qzxv").json()["valid"] is False
    french = api.get("/words/fr/%C3%A9t%C3%A9").json()
    assert (french["word"], french["normalized"], french["valid"]) == ("été", "ETE", True)
    # French has English translations now (FreeDict).
    assert french["definitions_available"] is True
    assert french["meanings"][0]["glosses"] == ["summer"]
    spanish = api.get("/words/es/ni%C3%B1o").json()
    assert spanish["normalized"] == "NIÑO"
    assert api.get("/words/en/ni%C3%B1o").json()["normalized"] == "NINO"
    unspellable = api.get("/words/en/%E4%BD%A0").json()
    assert (unspellable["normalized"], unspellable["valid"], unspellable["value"]) == (None, False, None)
    unknown = api.get("/words/xx/cat")
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_language")
    long = api.get("/words/en/" + "a" * 65)
    assert (long.status_code, long.json()["error"]) == (400, "bad_word")


def test_word_look_up_follows_moderation(
    api_as: Any, ana: Any, mia: Any, django_capture_on_commit_callbacks: Any
) -> None:
    api = api_as(ana)
    assert api.get("/words/en/zzyzxq").json()["valid"] is False
    dictionary, _ = Dictionary.objects.get_or_create(language="en")
    change = WordChange.objects.create(
        dictionary=dictionary,
        word="zzyzxq",
        normalized="ZZYZXQ",
        action=WordChange.Action.ADD,
        proposed_by=mia,
    )
    with django_capture_on_commit_callbacks(execute=True):
        change.approve(by=mia)
    assert api.get("/words/en/zzyzxq").json()["valid"] is True


def test_openapi_document_lists_every_endpoint(client: Client) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    for path, methods in {
        "/api/v1/token": {"post"},
        "/api/v1/account": {"get"},
        "/api/v1/games": {"get", "post"},
        "/api/v1/games/{game_id}": {"get"},
        "/api/v1/games/{game_id}/play": {"post"},
        "/api/v1/games/{game_id}/exchange": {"post"},
        "/api/v1/games/{game_id}/pass": {"post"},
        "/api/v1/games/{game_id}/resign": {"post"},
        "/api/v1/games/{game_id}/accept": {"post"},
        "/api/v1/games/{game_id}/decline": {"post"},
        "/api/v1/games/{game_id}/preview": {"post"},
        "/api/v1/games/{game_id}/gcg": {"get"},
        "/api/v1/words/{language}/{word}": {"get"},
        "/api/v1/stream/events": {"get"},
    }.items():
        assert methods <= set(paths[path]), path
    assert schema["components"]["securitySchemes"]["TokenAuth"] == {"type": "http", "scheme": "bearer"}
    assert "security" not in paths["/api/v1/token"]["post"]
    assert paths["/api/v1/games/{game_id}/play"]["post"]["security"] == [{"TokenAuth": []}]
    play = schema["components"]["schemas"]["PlayIn"]
    assert set(play["required"]) == {"tiles", "version"}


def test_docs_load_nothing_from_elsewhere(client: Client) -> None:
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources
    assert all(s.startswith("/static/") for s in sources), sources
    for source in sources:
        assert finders.find(source.removeprefix("/static/")), source
    assert "<script>" not in html.replace(" ", "")  # no inline script to allow in a CSP
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "unsafe-inline" not in policy
    assert json.loads(html.split('id="swagger-settings">', 1)[1].split("</script>", 1)[0])["url"] == (
        "/api/v1/openapi.json"
    )


def test_index(client: Client) -> None:
    assert client.get("/api/v1/").json()["docs"] == "/api/v1/docs"
