"""The fair-play signals of rated games analysed before they were kept: one ``FairPlayGame``
per person and game from its stored analysis (ranks already count not playing: 0007), as
``games.moderation.record_fair_play`` writes them now. Nothing is reviewed and no report is
filed here: the next analysed rated game of each player reviews their window."""

from django.db import migrations
from django.db.models import Max


def keep_signals(apps, schema_editor):
    GameAnalysis = apps.get_model("games", "GameAnalysis")
    GameAction = apps.get_model("games", "GameAction")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    FairPlayGame = apps.get_model("games", "FairPlayGame")
    analyses = GameAnalysis.objects.filter(game__rated=True, game__status="finished").select_related("game")
    for analysis in analyses.iterator(chunk_size=200):
        game = analysis.game
        seats = Seat.objects.filter(game=game, user__isnull=False, user__is_bot=False)
        if not seats or FairPlayGame.objects.filter(game=game).exists():
            continue
        start = GameAction.objects.filter(game=game, kind__in=("deal", "accept")).aggregate(
            at=Max("created_at")
        )
        previous = start["at"] or game.created_at
        seconds = {}
        for number, at in (
            Move.objects.filter(game=game).order_by("number").values_list("number", "created_at")
        ):
            seconds[number] = max(0, round((at - previous).total_seconds()))
            previous = at
        rows = []
        for seat in seats:
            mine = [e for e in analysis.moves if e["seat"] == seat.index and int(e.get("of", 2)) > 1]
            rows.append(
                FairPlayGame(
                    user_id=seat.user_id,
                    game=game,
                    language=game.language,
                    finished_at=game.finished_at or analysis.computed_at,
                    ranks=[int(e["rank"]) for e in mine],
                    shares=[int(e["share"]) for e in mine],
                    seconds=[seconds[e["number"]] for e in mine if e["number"] in seconds],
                )
            )
        FairPlayGame.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_fair_play_signals"),
        ("accounts", "0005_moderation_log_notices_bots_chat_choice"),
    ]

    operations = [
        migrations.RunPython(keep_signals, migrations.RunPython.noop),
    ]
