"""Forms: parse what the browser sends into what the models take."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, TypedDict, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import engine
from accounts.names import validate_text
from accounts.services import is_blocked
from dictionaries.models import LANGUAGE_CHOICES
from engine.state import CLASSIC_TILES
from games.actions import Exchange, Play
from games.archive import Filters
from games.messages import ERROR_MESSAGES, error_message
from games.models import Game, Seat
from games.pace import MAX_INCREMENT, SPEED_CHOICES, Pace
from games.pace import choices as pace_choices

# Lazy: translated when the error is shown, in the language of that request.
MISSING_VERSION = cast("str", ERROR_MESSAGES["missing_version"])

#: A coordinate as the front end sends it. ASCII digits only: ``int()`` alone would also
#: read "1_0" as 10 and Arabic-Indic digits; a minus sign is let through so that the
#: engine can answer "off the board".
COORDINATE = re.compile(r"-?[0-9]{1,3}")


def parse_tiles(text: str) -> list[engine.Placement]:
    """``"7,7,C,n;7,8,A,b"`` -> placements (see docs/games-ui-contract.md §2).
    Raises ``ValueError`` for anything malformed, including a normal tile (``n``)
    without a letter: only a blank may leave its letter unchosen."""
    placements = []
    for part in text.strip().strip(";").split(";"):
        fields = part.strip().split(",")
        if len(fields) != 4 or fields[3] not in {"b", "n"}:
            raise ValueError(f"bad placement {part!r}")
        if not all(COORDINATE.fullmatch(field.strip()) for field in fields[:2]):
            raise ValueError(f"bad square {part!r}")
        row, col = int(fields[0]), int(fields[1])
        letter = fields[2].strip().upper()
        if len(letter) > 1:
            raise ValueError(f"bad letter {letter!r}")
        is_blank = fields[3] == "b"
        if letter == engine.BLANK:
            letter = ""
        if not letter and not is_blank:
            raise ValueError(f"normal tile without a letter {part!r}")
        placements.append(engine.Placement(row, col, letter, is_blank))
    return placements


class ActionFields(TypedDict):
    """What every action form gives ``Game.act``."""

    version: int | None
    action_id: str


class ActionForm(forms.Form):
    """The fields every game action carries: the version the client saw and the
    client's id for this action (repeats of the same id are applied once)."""

    version = forms.IntegerField(min_value=0, error_messages={"required": MISSING_VERSION})
    action_id = forms.CharField(required=False, max_length=64)

    def action_fields(self) -> ActionFields:
        """``version`` and ``action_id`` as ``Game.act`` takes them."""
        return {
            "version": self.cleaned_data["version"],
            "action_id": self.cleaned_data.get("action_id") or "",
        }


#: The longest ``tiles`` string read: room for far more than a rack of placements.
MAX_TILES_LENGTH = 400


class TilesForm(forms.Form):
    """Tiles laid out on the board (the free preview reads only these)."""

    tiles = forms.CharField(max_length=MAX_TILES_LENGTH, required=False)

    def clean_tiles(self) -> list[engine.Placement]:
        text = self.cleaned_data.get("tiles") or ""
        if not text.strip():
            return []
        try:
            return parse_tiles(text)
        except ValueError:
            raise forms.ValidationError(error_message("bad_tiles"), code="bad_tiles") from None

    def placements(self) -> list[engine.Placement]:
        return list(self.cleaned_data["tiles"])


class MoveForm(ActionForm, TilesForm):
    def action(self) -> Play:
        return Play.of(self.placements())


class ExchangeForm(ActionForm):
    exchange = forms.CharField(max_length=16, required=False)

    def clean_exchange(self) -> str:
        tiles = "".join((self.cleaned_data.get("exchange") or "").split())
        # Letter by letter: str.upper() turns "ß" into "SS" and "ﬀ" into "FF", which
        # would swap tiles the player never picked.
        if any(len(tile.upper()) != 1 for tile in tiles):
            raise forms.ValidationError(error_message("bad_tiles"), code="bad_tiles")
        return tiles.upper()

    def action(self) -> Exchange:
        return Exchange.of(self.cleaned_data["exchange"])


class ChatForm(forms.Form):
    text = forms.CharField(max_length=500, strip=True, label=_("Message"))

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        # strip() keeps zero-width and other invisible format characters: a line of
        # only those would show as an empty message.
        if all(ch.isspace() or unicodedata.category(ch) in {"Cc", "Cf"} for ch in text):
            raise forms.ValidationError(error_message("empty_chat"), code="empty_chat")
        # A direction override (U+202E) would turn the rest of the line, and what follows it
        # on the page, around; an invisible character hides what is really written.
        validate_text(text)
        return text


class QuizAnswerForm(forms.Form):
    """An answer to a study quiz: which item (a row id, as the quiz page sends it) and the
    word given."""

    item = forms.IntegerField(min_value=1, max_value=2**63 - 1)
    answer = forms.CharField(required=False, strip=False)


def preset_field() -> forms.ChoiceField:
    """The rules a game is played under (a new game's, a tournament's)."""
    return forms.ChoiceField(
        label=_("Rules"),
        choices=Game.Preset.choices,
        initial=Game.Preset.WWF,
        required=False,
        help_text=_(
            "Classic rules: the classic board and tiles, 50 points for using all seven tiles, going out "
            "scores twice the other rack, six scoreless turns in a row end the game (not for Spanish)."
        ),
    )


def challenge_rule_field(help_text: StrOrPromise = "") -> forms.ChoiceField:
    """Whether and how a word may be challenged (a new game's, a tournament's)."""
    return forms.ChoiceField(
        label=_("Challenges"),
        choices=Game.ChallengeRule.choices,
        initial=Game.ChallengeRule.VOID,
        required=False,
        help_text=help_text,
    )


class NewGameForm(forms.Form):
    mode = forms.ChoiceField(label=_("Play against"), choices=Game.Mode.choices, initial=Game.Mode.COMPUTER)
    language = forms.ChoiceField(
        label=_("Game language"),
        choices=LANGUAGE_CHOICES,
        initial="en",
    )
    opponent = forms.CharField(label=_("Friend's username"), max_length=150, required=False)
    level = forms.ChoiceField(
        label=_("Computer level"), choices=Seat.Level.choices, required=False, initial=Seat.Level.MEDIUM
    )
    public = forms.BooleanField(
        label=_("Let other players watch this game"),
        help_text=_("Spectators never see your tiles."),
        required=False,
        initial=True,
    )
    extras = forms.BooleanField(
        label=_("Allow paid extras"),
        help_text=_("The tile bag, hindsight and word strength. Both players see which were bought."),
        required=False,
        initial=True,
    )
    kind = forms.ChoiceField(
        label=_("Rated or casual"),
        choices=[("casual", _("Casual")), ("rated", _("Rated"))],
        initial="casual",
        required=False,
        help_text=_("A rated game changes both players' ratings; paid extras are off in it."),
    )
    # games.pace: "3d" or "10+0"; the increment and sudden death apply to a live pace.
    pace = forms.ChoiceField(label=_("Pace"), choices=(), required=False, initial="5d")
    increment = forms.IntegerField(
        label=_("Seconds added after each move"),
        min_value=0,
        max_value=MAX_INCREMENT,
        required=False,
        initial=0,
    )
    sudden_death = forms.BooleanField(
        label=_("Sudden death"),
        help_text=_(
            "Live games: without it, a player whose clock runs out plays on in overtime, losing 10 points "
            "for each minute started, and loses on time after 10 minutes."
        ),
        required=False,
    )
    preset = preset_field()
    challenge = challenge_rule_field(
        help_text=_(
            "Under a challenge rule any word may be played; the opponent may challenge it before their move, "
            "and a word not in the dictionary is taken back."
        )
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        cast("forms.ChoiceField", self.fields["pace"]).choices = pace_choices()
        # New games start in the player's preferred game language.
        preferred = getattr(user, "game_language", "")
        if preferred in engine.LANGUAGES:
            self.fields["language"].initial = preferred

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        mode = data.get("mode")
        if mode == Game.Mode.FRIEND:
            name = (data.get("opponent") or "").strip()
            if not name:
                self.add_error("opponent", error_message("bad_opponent"))
            else:
                opponent = get_user_model().objects.named(name).filter(is_active=True).first()
                if opponent is None:
                    self.add_error("opponent", error_message("unknown_opponent"))
                elif opponent.pk == self.user.pk:
                    self.add_error("opponent", error_message("bad_opponent"))
                elif is_blocked(self.user, opponent):
                    self.add_error("opponent", error_message("blocked"))
                data["opponent_user"] = opponent
        if mode == Game.Mode.COMPUTER and not data.get("level"):
            self.add_error("level", error_message("bad_level"))
        data["preset"] = data.get("preset") or Game.Preset.WWF
        data["challenge"] = data.get("challenge") or Game.ChallengeRule.VOID
        if data["preset"] == Game.Preset.CLASSIC and data.get("language") not in CLASSIC_TILES:
            self.add_error("preset", error_message("bad_rules"))
        # Games against the computer are always casual.
        data["rated"] = data.get("kind") == "rated" and mode != Game.Mode.COMPUTER
        data["pace_value"] = None
        code = data.get("pace") or ""
        if code.endswith("+0"):
            code = f"{code[:-2]}+{data.get('increment') or 0}"
        if code:
            try:
                data["pace_value"] = Pace.parse(code, sudden_death=bool(data.get("sudden_death")))
            except ValueError:
                self.add_error("pace", error_message("bad_pace"))
        return data


YES_NO = (("", _("Any")), ("yes", _("Yes")), ("no", _("No")))


class ArchiveForm(forms.Form):
    """The archive's filters (``games.archive.Filters``), from the query string; every
    field may be left empty."""

    opponent = forms.CharField(label=_("Opponent"), max_length=150, required=False)
    language = forms.ChoiceField(
        label=_("Game language"), choices=[("", _("Any")), *LANGUAGE_CHOICES], required=False
    )
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[("", _("Any")), ("win", _("Won")), ("loss", _("Lost")), ("draw", _("Drawn"))],
        required=False,
    )
    mode = forms.ChoiceField(label=_("Mode"), choices=[("", _("Any")), *Game.Mode.choices], required=False)
    pace = forms.ChoiceField(label=_("Pace"), choices=[("", _("Any")), *SPEED_CHOICES], required=False)
    rated = forms.ChoiceField(label=_("Rated"), choices=YES_NO, required=False)
    tournament = forms.ChoiceField(label=_("Tournament game"), choices=YES_NO, required=False)
    since = forms.DateField(
        label=_("Finished from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("Finished until"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end_reason = forms.ChoiceField(
        label=_("How it ended"), choices=[("", _("Any")), *Game.EndReason.choices], required=False
    )
    word = forms.CharField(label=_("Contains the word"), max_length=32, required=False)

    def filters(self) -> Filters:
        """The cleaned fields as ``games.archive.Filters`` (call after ``is_valid``)."""
        data = self.cleaned_data
        yes_no = {"yes": True, "no": False}
        return Filters(
            opponent=data["opponent"].strip(),
            language=data["language"],
            result=data["result"],
            mode=data["mode"],
            pace=data["pace"],
            rated=yes_no.get(data["rated"]),
            tournament=yes_no.get(data["tournament"]),
            since=data["since"],
            until=data["until"],
            end_reason=data["end_reason"],
            word=data["word"].strip(),
        )
