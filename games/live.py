"""How a game reaches each screen live: the one module for it.

- **The read cache** (:class:`LoadedGames`): a process reads a game once per version; the
  answer to a move's POST and the pushes of that change in the same process share it.
- **What a page shows** (:class:`Shown`), worked out from the typed view
  (``games.gameview.GameView``), and **the delta** from one version to the next
  (:func:`delta`): the HTTP answer to a player's own action (:func:`answer`) and the
  push to every socket (:func:`shared_push`) are the same delta.
- **Render sharing** (:class:`SharedPushes`): one render per change for each kind of
  viewer (``Pov.kind``) and interface language, however many sockets this process has,
  the players' first. Renders run on threads of their own.

The consumers (``games.consumers``) only authorise, join, send a snapshot and hand events
here; ``games.rendering`` only turns a view into HTML.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import json
import threading
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import translation

from accounts import metrics
from accounts.livesocket import off_thread
from accounts.models import User
from games import notify, rendering
from games.actions import ENGINE_ACTION_KINDS, Action
from games.gameview import GameView, Loaded, away_of, chat_lines, load_game, view_of
from games.models import Game, Move
from games.pov import Pov, resolve
from notifications import presence

# ----- the read cache ---------------------------------------------------------------


class LoadedGames:
    """A process's recently read games, by (game id, version): the renders of one change
    for each kind of viewer (and the answer to the move's own POST) read the game once.
    A version never changes, except for what is not part of the game (a vacation, a
    player's name): an entry is used for ``SECONDS`` at most."""

    KEEP = 512
    SECONDS = 5.0
    #: Games whose last version is kept, at any age, to make the next one from (a game of
    #: 29 moves held about 114 KB, measured: some 60 MB for all of them at most).
    LATEST = 512
    #: The moves after which the next version is made from the last (nothing else changed).
    FOLLOWS = frozenset({Move.Kind.PLAY, Move.Kind.EXCHANGE, Move.Kind.PASS})

    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[int, int], Loaded] = OrderedDict()
        self.reading: dict[tuple[int, int], threading.Event] = {}
        # The last version of each game read or made here, whatever its age: its moves,
        # extras and deadline notes never change until the game's next version.
        self.latest: OrderedDict[int, Loaded] = OrderedDict()
        self.lock = threading.Lock()
        self.reads = 0  # games read from the database (what the tests look at)
        self.made = 0  # versions made from the one before and a move (no read)

    def get(self, game_id: int, version: int | None = None, *, game: Game | None = None) -> Loaded:
        """The game ``game_id``: its entry for ``version`` when there is a fresh one,
        else read now (at whatever version it is now; from ``game``, the game just read
        at ``version``, when given) and kept. Renders of one change and the answer to the
        move run at once on several threads: while one reads the game for ``version``,
        the others wait for it rather than read it too."""

        def read() -> Loaded:
            return Loaded.of(game if game is not None else load_game(game_id))

        if version is None:
            return self.keep(read())
        key = (game_id, version)
        with self.lock:
            hit = self._fresh(self.entries.get(key))
            reading = self.reading.get(key) if hit is None else None
            mine = hit is None and reading is None
            if mine:
                reading = self.reading[key] = threading.Event()
        if hit is not None:
            return hit
        assert reading is not None
        if not mine:
            reading.wait(1.0)
            return self.cached(game_id, version) or self.keep(read())
        try:
            return self.keep(read())
        finally:
            with self.lock:
                self.reading.pop(key, None)
            reading.set()

    def of_game(self, game: Game) -> Loaded:
        """``game`` (just read, with its seats) with what was read for its version, when
        that is still here (its moves, extras and vacations: no query), else read now
        and kept. For views, which have read the game row anyway."""
        hit = self.cached(game.pk, game.version)
        if hit is None:
            # Not kept: ``game`` is the caller's, and ``Game.act`` may change it next.
            return Loaded.of(game)
        return Loaded(game, hit.moves, hit.purchases, hit.away, hit.at, hit.extensions)

    def cached(self, game_id: int, version: int) -> Loaded | None:
        with self.lock:
            hit = self._fresh(self.entries.get((game_id, version)))
        # An entry whose game is no longer at its version (changed in place) is no hit.
        return hit if hit is not None and hit.game.version == version else None

    def _fresh(self, entry: Loaded | None) -> Loaded | None:
        return entry if entry is not None and time.monotonic() - entry.at < self.SECONDS else None

    def keep(self, data: Loaded, *, read: bool = True) -> Loaded:
        """Keep ``data`` (the oldest entries go: those past their time, and beyond
        ``KEEP``; entries are in the order they were read), read from the database
        unless ``read`` is False (made from the version before: ``made``)."""
        with self.lock:
            if read:
                self.reads += 1
            else:
                self.made += 1
            self.entries[(data.game.pk, data.game.version)] = data
            self.entries.move_to_end((data.game.pk, data.game.version))
            while self.entries and (
                len(self.entries) > self.KEEP or self._fresh(next(iter(self.entries.values()))) is None
            ):
                self.entries.popitem(last=False)
            self._hold_latest(data)
        return data

    def _hold_latest(self, data: Loaded) -> None:
        held = self.latest.get(data.game.pk)
        if held is not None and held.game.version > data.game.version:
            return
        # Without what its renders shared (kept only as long as the entry is fresh).
        self.latest[data.game.pk] = dataclasses.replace(data, shared={})
        self.latest.move_to_end(data.game.pk)
        while len(self.latest) > self.LATEST:
            self.latest.popitem(last=False)

    def after_move(self, game: Game, move: Move) -> None:
        """``move`` made ``game`` (saved, with its seats) one version on and just
        committed (``Game.act``'s hook, before the change's broadcast): when this process
        holds the version before, the new one is that with this move, kept for the answer
        to the move and its pushes; nothing is read again but the vacations (they change
        outside versions), and those only when the version before is older than
        ``SECONDS``. Only after a play, an exchange or a pass in a game still going on: a
        challenge marks a play withdrawn, an ending refunds extras; the others read."""
        if move.kind not in self.FOLLOWS or game.status != Game.Status.ACTIVE or not game.state:
            return
        with self.lock:
            before = self.latest.get(game.pk)
        if (
            before is None
            or before.game.version != game.version - 1
            or move.number != len(before.moves) + 1
            or move.number != game.state["moves_played"]
        ):
            return
        fresh = self._fresh(before) is not None
        self.keep(
            read=False,
            data=Loaded(
                game=game,
                moves=(*before.moves, move),
                purchases=before.purchases,
                away=before.away if fresh else away_of(game),
                at=before.at if fresh else time.monotonic(),
                extensions=before.extensions,
            ),
        )

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.reading.clear()
            self.latest.clear()


loaded_games = LoadedGames()


def seen_by(data: Loaded, pov: Pov) -> GameView:
    """``data`` as ``pov`` may see it; ``pov`` is resolved again only when it no longer
    holds (the creator of a seek that was matched meanwhile)."""
    game = data.game
    return view_of(data, pov if pov.holds_at(game.version, game.status) else resolve(game, pov.actor()))


def page_view(game: Game, pov: Pov) -> GameView:
    """``game`` (just read by a view, with its seats) as ``pov`` may see it, with what
    this process read for its version when it is still here."""
    return seen_by(loaded_games.of_game(game), pov)


# ----- what a page shows, and the delta to the next version --------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """What a viewer's live page shows after a push or an answer: its version, and the
    parts a delta to the next version is worked out against. A socket keeps one."""

    version: int
    status: str
    board: tuple[str, ...]
    last: frozenset[tuple[int, int]]
    moves: int
    rack: str  # the viewer's own rack ("" for anyone not seated)
    aids: int = 0  # extras bought so far, by either player
    extras: str = ""  # the viewer's own extras: which are bought for their period now
    withdrawn: int = 0  # plays challenged off: their log lines change
    notes: int = 0  # lines of the log that are not moves (a deadline moved on)

    @classmethod
    def of(cls, view: GameView) -> Shown:
        return cls(
            version=view.version,
            status=view.status,
            board=view.board,
            last=frozenset(view.last),
            moves=view.moves_count,
            rack=view.rack,
            aids=len(view.aids),
            extras=",".join(f"{x.code}:{x.bought}:{x.can_buy}" for x in view.extras),
            withdrawn=view.withdrawn_count,
            notes=len(view.notes),
        )

    def followed_by(self, now: Shown) -> bool:
        """Whether ``now`` is the very next version of the same game in play, so that a
        delta from this one is enough. Anything else (a missed version, the start of a
        game, a board of another size) gets the full snapshot."""
        return (
            now.version == self.version + 1
            and self.status == Game.Status.ACTIVE
            and now.status in (Game.Status.ACTIVE, Game.Status.FINISHED)
            and now.moves >= self.moves
            and len(now.board) == len(self.board)
        )


def changed_squares(before: Shown, now: Shown) -> list[tuple[int, int]]:
    """The squares a delta sends: new tiles, and any square gaining the last-move
    highlight. Squares that only lose it are not sent: the version marker lists the
    highlighted squares (``data-last``) and app.js clears the others."""
    return [
        (r, c)
        for r, (old, new) in enumerate(zip(before.board, now.board, strict=True))
        for c in range(len(new))
        if old[c] != new[c] or ((r, c) in now.last and (r, c) not in before.last)
    ]


def delta_partials(view: GameView, before: Shown, now: Shown) -> list[str]:
    """The partials a delta from ``before`` to ``now`` re-renders whole: the scoreboard
    (scores, turn, bag) and the move panel always; the move log when its first line
    replaces "No moves yet" or a note joins it; the aids and the viewer's own extras and rack when they
    changed; the game-over banner (and the whole rack) when the game ended."""
    names = ["scoreboard", "move_panel"]
    ended = now.status != before.status
    if (before.moves == 0 and now.moves) or now.notes != before.notes or now.withdrawn != before.withdrawn:
        # At the end the racks of every line are public, but a reload or the replay shows
        # them: resending the whole log would make a game's last push its largest. A note
        # (a deadline moved on, once a turn at most) comes with the whole log.
        names.append("move_log")
    if now.aids != before.aids:
        names.append("aids")
    if view.viewer_seat is not None:
        if now.extras != before.extras:
            names.append("extras")
        if ended:
            names.append("rack")
        elif now.rack != before.rack:
            names.append("rack_tiles")
    if ended:
        names.append("game_over")
    return names


def delta(
    view: GameView, before: Shown, now: Shown, frame: rendering.Frame, *, data: Loaded | None = None
) -> str:
    """The partials that changed from ``before`` to ``now`` (one version later), as
    out-of-band swaps, the version marker first. The rack only ever comes from the
    view, which holds the viewer's own rack and nobody else's. The changed squares and
    the new lines of the move log are the same for every viewer: with ``data`` (what
    ``view`` was built from) they are rendered once per version, language and version
    before, for every kind of viewer and the answer."""

    def board_and_log() -> tuple[str, str]:
        names = rendering.premium_names()
        squares = "".join(
            render_to_string(
                rendering.PARTIALS["square"],
                {
                    "sq": rendering.square_item(
                        now.board,
                        r,
                        c,
                        language=view.tiles,
                        layout_name=view.layout,
                        last=now.last,
                        names=names,
                    ),
                    "square_oob": True,
                },
            )
            for r, c in changed_squares(before, now)
        )
        lines = rendering.move_lines(view, view.moves[before.moves :]) if 0 < before.moves < now.moves else ""
        return squares, lines

    key = ("delta", before.version, before.moves, translation.get_language())
    squares, lines = data.share(key, board_and_log) if data is not None else board_and_log()
    sync = rendering.render(["game_sync"], view, dataclasses.replace(frame, base_version=before.version))
    partials = delta_partials(view, before, now)
    # New lines only, unless the whole log was resent (a note, a play withdrawn).
    lines = lines if "move_log" not in partials else ""
    return "".join((sync, squares, rendering.render(partials, view, frame), lines))


def snapshot(view: GameView, frame: rendering.Frame) -> str:
    """Every partial ``view``'s viewer may receive, each as an out-of-band swap."""
    return rendering.render(rendering.snapshot_names(view), view, frame)


# ----- the answer to a player's own action -------------------------------------------


def answer(game: Game, pov: Pov, before: Shown | Game | None, frame: rendering.Frame) -> str:
    """The answer to ``pov``'s own action on ``game`` (as the action left it): the delta
    from ``before`` (what their page showed when they acted, see :func:`before_action`)
    when the game is now exactly one version on and nothing is to be said about it
    (``form_errors``), else the full snapshot. What is read for it is kept for the
    pushes of the same change (:class:`LoadedGames`)."""
    # Shared with the pushes of this change (which start when it commits, before this
    # answer): one read in this process. Nothing changes ``game`` after its answer.
    data = loaded_games.get(game.pk, game.version, game=game)
    view = seen_by(data, pov)
    now = Shown.of(view)
    if isinstance(before, Game):
        # Worked out only when a delta may follow: the game one version on, from
        # ``before`` by the viewer's own action.
        moved_on = game.version == before.version + 1 and not frame.form_errors
        before = Shown.of(seen_by(data.as_of(before), pov)) if moved_on else None
    if before is not None and not frame.form_errors and before.followed_by(now):
        return delta(view, before, now, frame, data=data)
    return snapshot(view, frame)


def before_action(game: Game, pov: Pov, action: Action) -> Shown | Game:
    """What ``pov``'s page of ``game`` (as read for their ``action``, at the version the
    page showed) shows, for :func:`answer`. For an engine action, a copy of the game,
    worked out into what it showed only after the action, from what the answer reads
    (:meth:`Loaded.as_of`): nothing is read before the action, so the opponent's push,
    which goes out when the action commits, does not wait for it. For the others (an
    extra bought adds to what the answer reads) what it shows, worked out now."""
    if action.kind not in ENGINE_ACTION_KINDS:
        return Shown.of(page_view(game, pov))
    earlier = copy.copy(game)
    # ``Game.act`` refreshes ``game`` in place, its prefetched seats included.
    earlier._prefetched_objects_cache = dict(getattr(game, "_prefetched_objects_cache", {}))
    return earlier


def repeat_of(before: Shown | Game | None, version: int) -> Shown | Game | None:
    """``before`` when the action just applied made ``version`` from it; None when the
    game moved on otherwise (a repeated action, one applied over an extra bought):
    then the page's version cannot be worked out from the action (a snapshot)."""
    if isinstance(before, Game) and version != before.version + 1:
        return None
    return before


# ----- pushes -----------------------------------------------------------------------

#: Stands for the move panel's ``action_id`` in a push rendered once for several
#: sockets; each socket puts a fresh one in its own copy (``with_action_id``), so two
#: tabs of one player never share an action id.
ACTION_ID_MARK = "0" * 20 + "5ac7" + "0" * 8


@dataclass(frozen=True, slots=True)
class Pushed:
    """A render for one kind of viewer: the HTML (empty: nothing to send), what the page
    shows after it, and the point of view it was rendered for."""

    html: str
    shown: Shown
    pov: Pov


def shared_push(game_id: int, pov: Pov, since: Shown | None, version: int | None = None) -> Pushed:
    """What a socket of ``pov`` sends after a change, given what it sent last (``since``;
    None on connect and on resync): nothing when the page already shows this version, a
    delta when the game moved on by exactly one version, else the snapshot. The same
    for every viewer of the same kind, with ``ACTION_ID_MARK`` where the action id goes.
    ``version``: the one the change announced (the game as read for it is shared by
    every kind of viewer in this process); None reads the game as it is now."""
    data = loaded_games.get(game_id, version)
    view = seen_by(data, pov)
    now = Shown.of(view)
    frame = rendering.Frame(oob=True, action_id=ACTION_ID_MARK)
    if since is not None and since.version == now.version:
        return Pushed("", since, view.pov)
    if since is None or not since.followed_by(now):
        return Pushed(snapshot(view, frame), now, view.pov)
    return Pushed(delta(view, since, now, frame, data=data), now, view.pov)


def with_action_id(html: str) -> str:
    """One socket's copy of a shared push, with its own action id."""
    return html.replace(ACTION_ID_MARK, uuid.uuid4().hex) if ACTION_ID_MARK in html else html


def chat_fragment(game_id: int, pov: Pov) -> str:
    """The chat lines, for a seated player only (nothing for anyone else)."""
    if not pov.is_player:
        return ""
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    return rendering.chat_html(chat_lines(game_id, pov), version or 0)


def observe_push(event: dict[str, object], pov: Pov) -> None:
    """A push of ``event`` (``game.changed``) was just sent to ``pov``'s socket: the time
    since the change committed, for operators (``accounts.metrics.push_seconds``), by who
    the viewer is: the opponent, the player who made the change, a spectator. Across
    machines this is as good as their clocks agree."""
    at = event.get("at")
    if not isinstance(at, float):
        return
    if not pov.is_player:
        viewer = "spectator"
    elif pov.user_id is not None and pov.user_id == event.get("by"):
        viewer = "mover"
    else:
        viewer = "opponent"
    metrics.push_seconds.labels(viewer).observe(max(time.time() - at, 0.0))


# ----- sockets: who watches, and what a client may ask ---------------------------------


def watched_pov(game_id: int, user: User | AnonymousUser) -> Pov | None:
    """Who ``user`` is to the game if they may watch it, else None (a socket's connect)."""
    game = Game.objects.watchable_by(user).with_seats().filter(pk=game_id).first()
    return game.pov(user) if game is not None else None


#: A client may ask for a fresh snapshot at most this often; more is ignored, so a
#: misbehaving client cannot make the server re-render in a loop.
RESYNC_INTERVAL = 1.0


def may_ask(last: float) -> float | None:
    """When a client last asked at ``last`` (``time.monotonic()``): the time to record if
    it may ask again now, None while ``RESYNC_INTERVAL`` has not passed."""
    now = time.monotonic()
    return now if now - last >= RESYNC_INTERVAL else None


def client_message(text_data: str | None) -> str:
    """What a client asks for: ``resync`` (a full snapshot), ``check`` (what changed since
    this socket's last frame, nothing when it is current), or "" (anything else)."""
    try:
        message = json.loads(text_data or "")
    except ValueError:
        return ""
    if not isinstance(message, dict):
        return ""
    if message.get("type") == "resync" or "resync" in message:
        return "resync"
    return "check" if message.get("type") == "check" else ""


async def stay_present(game_id: int, user_id: int) -> None:
    """Mark a player's socket present on the game until it closes, refreshed well within
    the key's expiry (``notifications.presence``: no push about this game meanwhile)."""
    try:
        while True:
            await presence.amark_present(user_id, game_id)
            # Looking at the game during their turn counts as warned (games.rules._extend).
            await off_thread(notify.on_viewed)(game_id, user_id)
            await asyncio.sleep(max(1.0, settings.PRESENCE_SECONDS / 3))
    finally:
        with contextlib.suppress(Exception):
            await presence.amark_gone(user_id, game_id)


async def stop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait for it to end."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


# ----- render threads and render sharing ----------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


def in_language(language: str, render: Callable[P, R]) -> Callable[P, R]:
    """``render`` run with ``language`` active (it runs in a worker thread, where no
    middleware has activated one)."""

    def rendered(*args: P.args, **kwargs: P.kwargs) -> R:
        with translation.override(language):
            return render(*args, **kwargs)

    return rendered


async def render_in(language: str, fragment: Callable[..., str], *args: object) -> str:
    """``fragment(*args)`` rendered on a render thread, in ``language``."""
    return await off_thread(in_language(language, fragment))(*args)


PushKey = tuple[int, str, str, int | None, int | None]


class SharedPushes:
    """One process's game pushes, rendered once for all its sockets that see the same
    thing: per change, one render per seated player and one per interface language for
    all spectators (``Pov.kind``), however many sockets there are; and the players'
    renders first.

    A render is keyed by (game, viewer kind, language, version the socket shows, version
    the event announced) and shared while it runs and for the next ``KEEP`` changes, so
    sockets handling the same event never render it twice. Snapshots on connect and
    resync (event version None) are only shared while they run, so none is stale.

    Players first: a spectator's socket waits (at most ``PLAYERS_FIRST_WAIT`` seconds)
    until every seated player's socket in this process has handled the change, so a
    crowd of spectators never delays the opponent."""

    KEEP = 256
    PLAYERS_FIRST_WAIT = 0.3

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.renders: OrderedDict[PushKey, asyncio.Future[Pushed]] = OrderedDict()
        self.players: Counter[int] = Counter()  # game id -> seated players' sockets here
        self.handled: OrderedDict[tuple[int, int], tuple[list[int], asyncio.Event]] = OrderedDict()
        self.count = 0  # renders started (what the tests and the benchmark look at)

    def _here(self) -> None:
        """Futures and events belong to one event loop (tests run one per test)."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.loop = loop
            self.renders.clear()
            self.handled.clear()
            self.players.clear()

    async def push(
        self, game_id: int, pov: Pov, language: str, since: Shown | None, version: int | None
    ) -> Pushed:
        self._here()
        key: PushKey = (game_id, pov.kind, language, since.version if since else None, version)
        render = self.renders.get(key)
        if render is None:
            self.count += 1
            run = in_language(language, shared_push)
            render = asyncio.ensure_future(off_thread(run)(game_id, pov, since, version))
            self.renders[key] = render
            render.add_done_callback(lambda done: self._settled(key, done, keep=version is not None))
        pushed = await asyncio.shield(render)
        # The render is shared by kind: this socket keeps its own point of view.
        mine = pushed.pov if pushed.pov.user_id == pov.user_id else pov
        return Pushed(with_action_id(pushed.html), pushed.shown, mine)

    def _settled(self, key: PushKey, render: asyncio.Future[Pushed], *, keep: bool) -> None:
        if not keep or render.cancelled() or render.exception() is not None:
            if self.renders.get(key) is render:
                del self.renders[key]
            return
        while len(self.renders) > self.KEEP:
            self.renders.popitem(last=False)

    def _turn(self, game_id: int, version: int) -> tuple[list[int], asyncio.Event]:
        turn = self.handled.get((game_id, version))
        if turn is None:
            turn = self.handled[(game_id, version)] = ([0], asyncio.Event())
            while len(self.handled) > self.KEEP:
                self.handled.popitem(last=False)
        return turn

    def player_joined(self, game_id: int, delta: int) -> None:
        self._here()
        self.players[game_id] += delta
        if self.players[game_id] <= 0:
            del self.players[game_id]

    def player_handled(self, game_id: int, version: int) -> None:
        done, event = self._turn(game_id, version)
        done[0] += 1
        if done[0] >= self.players[game_id]:
            event.set()

    async def after_players(self, game_id: int, version: int) -> None:
        if not self.players[game_id]:
            return
        _done, event = self._turn(game_id, version)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), self.PLAYERS_FIRST_WAIT)


shared_pushes = SharedPushes()
