// @ts-check
// Generated from salad.server.messages by `python -m salad.server.protocol_schema`:
// do not edit. The websocket's messages (docs/protocol.md, docs/protocol.schema.json).

/**
 * `{"type": "chat", "text": "nice one"}` or `{"type": "chat", "emote": "gg"}`.
 * @typedef {object} ChatIn
 * @property {"chat"} type
 * @property {string | null} [text] At most 200 characters once its spaces are tidied
 * @property {"nice" | "haha" | "wow" | "ouch" | "gg" | "oops" | null} [emote]
 */

/**
 * A chat line or reaction (`text` or `emote`) and who said it when.
 * @typedef {object} ChatLine
 * @property {number} seat -1: a spectator
 * @property {string} name
 * @property {number} at Unix seconds
 * @property {string} [text]
 * @property {"nice" | "haha" | "wow" | "ouch" | "gg" | "oops"} [emote]
 */

/**
 * The table's recent lines, oldest first, and whether spectators may write: on connect.
 * @typedef {object} ChatLog
 * @property {"chat_log"} type
 * @property {ChatLine[]} lines
 * @property {boolean} spectators
 */

/**
 * `chat`: a line or reaction said at the table, to every connection of it.
 * @typedef {object} Chat
 * @property {number} seat -1: a spectator
 * @property {string} name
 * @property {number} at Unix seconds
 * @property {string} [text]
 * @property {"nice" | "haha" | "wow" | "ouch" | "gg" | "oops"} [emote]
 * @property {"chat"} type
 */

/**
 * `{"type": "chat_settings", "spectators": true}` (the host): may spectators write?
 * @typedef {object} ChatSettingsIn
 * @property {"chat_settings"} type
 * @property {boolean} spectators
 */

/**
 * `chat_settings`: whether spectators may write, as the host just set it.
 * @typedef {object} ChatSettings
 * @property {"chat_settings"} type
 * @property {boolean} spectators
 */

/**
 * Every message a client sends (hello as the first only).
 * @typedef {HelloIn | PlayIn | PingIn | NextIn | ChatIn | ChatSettingsIn | HintIn | UndoIn} ClientMessage
 */

/**
 * The concrete deck for the table's player count (salad.server.info.deck_info).
 * @typedef {object} Deck
 * @property {Suit[]} suits
 * @property {Rank[]} ranks
 * @property {Wild[]} wilds
 * @property {number} cards_each
 */

/**
 * `error`: one line saying what was refused; nothing changed.
 * @typedef {object} ErrorMessage
 * @property {"error"} type
 * @property {string} message
 */

/**
 * The summary of the hand just finished while the table waits for Next hand (and of the
 * last hand once the game is over; salad.server.tables.wire.hand_summary).
 * @typedef {object} HandEnd
 * @property {number} hand
 * @property {string} round
 * @property {Penalty[]} penalties
 * @property {Record<string, number>[]} seats Each seat's points by penalty id, and moon
 * @property {number} moon The seat that shot the moon, or -1
 * @property {number[]} points
 * @property {number[]} totals
 * @property {number[]} standings
 * @property {number[]} waiting The seats whose Next hand the table waits for
 */

/**
 * A round of the game in playing order, its penalties in words.
 * @typedef {object} HandInfo
 * @property {number} number
 * @property {string} round
 * @property {string[]} penalties
 * @property {number} total
 * @property {Mark[]} marks
 */

/**
 * A finished hand: its round and each seat's points.
 * @typedef {object} HandRound
 * @property {number} number
 * @property {string} round
 * @property {number[]} points
 */

/**
 * `{"type": "hello", "token": "..."}`, a connection's first message: the seat's token
 * (sent here rather than in the URL, which servers and proxies write to their logs).
 * @typedef {object} HelloIn
 * @property {"hello"} type
 * @property {string} token
 */

/**
 * `{"type": "hint"}`: the expert's move for this seat, and why (tables of bots).
 * @typedef {object} HintIn
 * @property {"hint"} type
 */

/**
 * The expert's move for the seat and why; `moves` says for which state.
 * @typedef {object} Hint
 * @property {"hint"} type
 * @property {string} move
 * @property {string} reason
 * @property {string} bot
 * @property {number} moves
 */

/**
 * The game's last finished trick (it may be of the previous hand).
 * @typedef {object} LastTrick
 * @property {number} leader
 * @property {[number, string][]} cards
 * @property {number} winner
 */

/**
 * The lobby: `GET /api/tables/{id}` and the `table` of a `state`.
 * @typedef {object} Lobby
 * @property {string} table_id
 * @property {"lobby" | "playing" | "over"} status
 * @property {string} rules
 * @property {string} title
 * @property {number} players
 * @property {Seat[]} seats
 * @property {number} host
 * @property {number | null} turn_timer
 * @property {number | null} bot_takeover
 * @property {"slow" | "normal" | "fast"} pace How fast the bots play and how long a finished trick stays (the host's)
 * @property {number} trick_pause Seconds a finished trick stays on the table
 * @property {number} game_number
 * @property {number} min_players
 * @property {number} max_players
 * @property {Deck} deck
 * @property {HandInfo[]} hands
 * @property {boolean} highest_wins
 * @property {string[]} toppings
 * @property {number} passing How many cards each seat passes before a hand (0: none)
 * @property {string} pass_direction
 * @property {string[]} [topping_text] Each topping in play: its name, then what it does
 * @property {string | null} [marker] The name of the piece a seat may hold for a penalty (a token)
 */

/**
 * A suit, or one card, that a round names itself: `suit` indexes the deck's suits.
 * @typedef {object} Mark
 * @property {number} suit
 * @property {string} [card]
 */

/**
 * `{"type": "next"}`: this seat has seen the hand's summary; the next hand starts once
 * every connected human seat has sent it (or the turn timer runs out).
 * @typedef {object} NextIn
 * @property {"next"} type
 */

/**
 * A pass phase played at once, every seat choosing when it likes (docs/protocol.md,
 * "Passing at once"): what this seat may choose now and has chosen, who is still choosing.
 * @typedef {object} Passing
 * @property {string[]} legal The cards this seat may choose now (none once done)
 * @property {string[]} chosen The cards it has chosen, before its turn or at it
 * @property {number[]} choosing The seats still choosing, the next to pass first
 */

/**
 * A penalty of a hand's summary: its id (the key of its points) and its name.
 * @typedef {object} Penalty
 * @property {string} id
 * @property {string} name
 */

/**
 * `{"type": "ping"}`: answered `{"type": "pong"}`.
 * @typedef {object} PingIn
 * @property {"ping"} type
 */

/**
 * `{"type": "play", "move": "QS"}`: the seat's move as text (`QS`, `W+`, `trump:H`).
 * @typedef {object} PlayIn
 * @property {"play"} type
 * @property {string} move As in the view's legal; any spelling salad.moves reads
 */

/**
 * `pong`: the answer to a `ping`.
 * @typedef {object} Pong
 * @property {"pong"} type
 */

/**
 * A rank (low to high): its letter in card codes, its name, and its card face.
 * @typedef {object} Rank
 * @property {string} letter
 * @property {string} name
 * @property {string} label What a card shows: 10 for T
 * @property {string} [text] How a person reads the rank where the label misleads
 */

/**
 * A seat of the lobby: who sits there, and whether they are connected.
 * @typedef {object} Seat
 * @property {number} seat
 * @property {"human" | "bot" | "open"} kind
 * @property {string | null} name
 * @property {string | null} bot
 * @property {boolean} connected
 * @property {boolean} takeover A bot is playing for this away seat
 */

/**
 * Every message the server sends.
 * @typedef {State | ErrorMessage | Pong | Chat | ChatLog | ChatSettings | Hint | Undone} ServerMessage
 */

/**
 * `state`: the table as one seat (`you`, -1 for a spectator) sees it, sent on connect
 * and after every change; the kept fields are left out when the connection has them.
 * @typedef {object} State
 * @property {"state"} type
 * @property {number} you
 * @property {View | null} view null before the game starts
 * @property {number | null} deadline When the turn timer runs out (Unix seconds)
 * @property {number} moves The moves of the current game so far
 * @property {HandEnd | null} hand_end
 * @property {Passing} [passing] In a pass phase played at once (the view stays the engine's)
 * @property {Lobby} [table] The lobby, when it changed since the last one sent (kept: left out when the connection has it)
 * @property {LastTrick | null} [last_trick] The game's last finished trick (kept: left out when the connection has it)
 * @property {HandRound[]} [hand_rounds] Every finished hand (kept: left out when the connection has it)
 * @property {number[]} [winners] The winning seats once the game is over (kept: left out when the connection has it)
 */

/**
 * A suit of the deck: its letter in card codes (`S`), its name and its symbol (`♠`).
 * @typedef {object} Suit
 * @property {string} letter
 * @property {string} name
 * @property {string} symbol
 * @property {string} [art] A drawing's name (Skip the Salad's)
 */

/**
 * A finished trick of the hand: its cards in the order played.
 * @typedef {object} Trick
 * @property {number} leader
 * @property {string[]} cards
 * @property {number} winner
 */

/**
 * `{"type": "undo"}`: take back this seat's last move and the bots' after it.
 * @typedef {object} UndoIn
 * @property {"undo"} type
 */

/**
 * A seat took back `count` moves (its own and the bots' after it); `moves` are left.
 * @typedef {object} Undone
 * @property {"undone"} type
 * @property {number} seat
 * @property {number} count
 * @property {number} moves
 */

/**
 * What a seat (or a spectator, seat -1) sees of the game: `View.to_dict()`.
 * @typedef {object} View
 * @property {number} seat
 * @property {number} players
 * @property {"deal" | "pass" | "trump" | "play" | "over"} phase
 * @property {number} hand From 1
 * @property {string} round
 * @property {number} dealer
 * @property {number} to_move
 * @property {string[]} cards The seat's own cards (none for a spectator)
 * @property {string[]} legal The seat's legal moves now
 * @property {number} leader
 * @property {[number, string][]} trick Seat and card of each card of this trick
 * @property {string | null} led_suit
 * @property {string | null} trump
 * @property {Trick[]} [tricks] This hand's finished tricks (kept: left out when the connection has it)
 * @property {number[]} hand_sizes
 * @property {number[]} tricks_won
 * @property {number[]} running This hand's penalties so far, seat by seat
 * @property {number | null} token
 * @property {number[][]} hand_points
 * @property {number[]} totals
 * @property {string[]} passed
 * @property {string[]} received
 */

/**
 * A wild card of the table's deck.
 * @typedef {object} Wild
 * @property {string} code
 * @property {string} name
 * @property {string} symbol
 * @property {boolean} declare Its player declares it high (W+) or low
 */

/**
 * A `state`'s view once completed: every kept key is there.
 * @typedef {View & Required<Pick<View, "tricks">>} CompleteView
 */

/**
 * A `state` once completed (table/protocol.js, `complete`): every kept key is there.
 * @typedef {Omit<State, "table" | "last_trick" | "hand_rounds" | "winners" | "view"> & Required<Pick<State, "table" | "last_trick" | "hand_rounds" | "winners">> & {view: CompleteView | null}} CompleteState
 */

/** The keys a `state` leaves out when its connection already has them. */
export const KEPT = /** @type {const} */ (["table", "last_trick", "hand_rounds", "winners"]);
/** The keys of a `state`'s view it leaves out likewise. */
export const VIEW_KEPT = /** @type {const} */ (["tricks"]);
