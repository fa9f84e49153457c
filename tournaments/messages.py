"""Every refusal an organiser or player can meet on a tournament, as a translatable
sentence, in one place (``TournamentError.code`` keys this table)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

ERROR_MESSAGES: dict[str, Promise] = {
    "not_organiser": _("Only the tournament's organiser can do that."),
    "not_allowed_to_create": _("Only organisers can create tournaments."),
    "registration_closed": _("Registration for this tournament is closed."),
    "already_registered": _("This player is already registered."),
    "not_registered": _("This player is not registered in this tournament."),
    "already_withdrawn": _("This player has already withdrawn."),
    "not_withdrawn": _("This player is playing, not withdrawn."),
    "started_withdraw": _("The tournament has started: ask the organiser to withdraw you."),
    "round_robin_closed": _("A round robin takes no new players once it has started."),
    "tournament_finished": _("The tournament is over."),
    "not_enough_players": _("At least two players are needed to pair a round."),
    "too_many_rounds": _(
        "A round robin of %(players)s players has %(length)s rounds: lower the number of rounds or add players."
    ),
    "round_not_finished": _("The current round still has games to finish or results to enter."),
    "round_not_started": _("Start the current round before pairing the next one."),
    "no_more_rounds": _("All the rounds have been paired."),
    "no_paired_round": _("There is no paired round waiting to start."),
    "round_already_started": _("This round has started: its pairings can no longer change."),
    "not_in_round": _("Choose players who are in this round."),
    "same_player": _("A player cannot play themselves."),
    "no_bye_in_round": _("This round has no bye."),
    "unknown_table": _("There is no such table in that round."),
    "bye_table": _("A bye has no result to change."),
    "bad_scores": _("Enter both scores as whole numbers of zero or more."),
    "bad_absent": _("Say which player forfeited."),
    "bad_override": _("Choose scores, a forfeit, or the game's own result."),
    "reason_required": _("Give a reason: it goes in the tournament log."),
    "bad_language": _("Choose one of the game languages."),
    "bad_system": _("Choose round robin, double round robin or Swiss."),
    "bad_rounds": _("The number of rounds must be at least 1."),
    "bad_days": _("Days per move must be at least 1."),
    "bad_dictionary_version": _(
        "The dictionary has not reached version %(version)s yet (it is at %(current)s)."
    ),
    "options_need_swiss": _("King of the Hill and Gibsonisation are for Swiss tournaments."),
    "bad_prize_places": _("The number of prize places must be at least 1."),
    "bad_checkin": _("Check-in must open before the start time."),
    "no_checkin": _("This tournament has no check-in."),
    "checkin_closed": _("Check-in is not open."),
    "already_checked_in": _("This player has already checked in."),
    "bad_missed": _("Choose a bye or a loss for the rounds a late entrant missed."),
    "late_entry_paired_round": _(
        "The current round is paired but not started: start it, then enter the player."
    ),
    "division_of_division": _("A division cannot have divisions of its own."),
    "event_has_players": _("Add the divisions before anyone registers: players then go to their division."),
    "bad_band": _("The lowest rating must not be above the highest."),
    "too_many_divisions": _("An event has at most 26 divisions."),
    "not_same_event": _("Players move only between divisions of the same event."),
    "same_division": _("The player is already in that division."),
    "pair_each_division": _("This event has divisions: pair each division on its own page."),
    "bad_real_name": _('Write the real name as "Last, First".'),
    "bad_adjudication": _("Choose how unfinished games are scored when a round's time is up."),
    "bad_round_hours": _("A round lasts at least one hour."),
    "bad_rules": _("Choose the rules and a challenge rule this game language can be played with."),
    "bad_prize_bands": _("Write rating caps as whole numbers separated by commas."),
    "preflight_failed": _("The files would be wrong: %(problems)s"),
}


def error_message(code: str, **params: Any) -> str:
    """The sentence for ``code`` in the active language."""
    message = ERROR_MESSAGES.get(code)
    if message is None:
        return gettext("That is not allowed.")
    text = str(message)
    return text % params if params else text
