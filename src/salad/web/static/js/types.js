// @ts-check
// The shapes of what the server sends (docs/protocol.md, the REST answers), for the type check
// only: this module holds no code. Import a type with `import("./types.js").View`.

/**
 * A suit of the deck: its letter in card codes ("S"), its name and its symbol ("♠").
 * @typedef {{letter: string, name: string, symbol: string, art?: string}} Suit
 */

/**
 * A rank: its letter in card codes ("Q", "T"), its name, and the label on the card ("10").
 * @typedef {{letter: string, name: string, label?: string, text?: string}} Rank
 */

/**
 * A wild card: its code, name and symbol; `declare`: played as high or low.
 * @typedef {{code: string, name: string, symbol: string, declare?: boolean}} Wild
 */

/** @typedef {{suits?: Suit[], ranks?: Rank[], wilds?: Wild[]}} DeckSpec */

/**
 * A suit or one card a round or a question names (salad.server.info.card_mark): `suit`
 * indexes the deck's suits; `card` is the card's code when it is one card.
 * @typedef {{suit: number, card?: string}} Mark
 */

/**
 * A seat of the lobby.
 * @typedef {object} Seat
 * @property {number} [seat]
 * @property {"human" | "bot" | "open"} kind
 * @property {string | null} [name]
 * @property {string | null} [bot]
 * @property {boolean} [connected]
 * @property {boolean} [takeover] a bot plays for this away seat
 */

/**
 * A hand of the game as the lobby lists it.
 * @typedef {{number: number, round: string, penalties: string[], total?: number, marks?: Mark[]}} HandInfo
 */

/**
 * The lobby (`table` of a state message, GET /api/tables/{id}).
 * @typedef {object} Table
 * @property {string} [table_id]
 * @property {"lobby" | "playing" | "over"} status
 * @property {string} [rules]
 * @property {string} [title]
 * @property {number} [players]
 * @property {Seat[]} seats
 * @property {number} host
 * @property {number | null} [turn_timer]
 * @property {number | null} [bot_takeover]
 * @property {number} [game_number]
 * @property {number} [min_players]
 * @property {number} [max_players]
 * @property {DeckSpec} [deck]
 * @property {HandInfo[]} [hands]
 * @property {boolean} [highest_wins]
 * @property {string[]} [toppings]
 * @property {string[]} [topping_text] each topping in play: "Name: what it does"
 * @property {string | null} [marker] the name of the token a seat may hold (Rotten Tomato)
 * @property {number | {count?: number, direction?: string}} [passing]
 * @property {string} [pass_direction]
 */

/**
 * A finished trick of the view.
 * @typedef {{leader: number, cards: string[], winner: number}} Trick
 */

/**
 * What a seat (or a spectator) sees of the game.
 * @typedef {object} View
 * @property {number} seat
 * @property {number} players
 * @property {"deal" | "pass" | "trump" | "play" | "over"} phase
 * @property {number} hand
 * @property {string} round
 * @property {number} dealer
 * @property {number} to_move
 * @property {string[]} cards
 * @property {string[]} legal
 * @property {number} leader
 * @property {[number, string][]} trick seat and card of each card played to this trick
 * @property {string | null} led_suit
 * @property {string | null} trump
 * @property {Trick[]} tricks
 * @property {number[]} hand_sizes
 * @property {number[]} tricks_won
 * @property {number[]} running
 * @property {number | null} token
 * @property {number[][]} hand_points
 * @property {number[]} totals
 * @property {string[]} passed
 * @property {string[]} received
 */

/**
 * The last finished trick, as a state message gives it.
 * @typedef {{cards: [number, string][], winner: number, leader: number}} LastTrick
 */

/** @typedef {{number: number, round: string, points: number[]}} HandRound */

/**
 * The summary of the hand just finished, while the table waits for Next hand (and of the last
 * hand at game over): each seat's points by penalty (`seats[s][penalty id]`, and `moon`).
 * @typedef {object} HandEnd
 * @property {number} hand
 * @property {string} round
 * @property {{id: string, name: string}[]} penalties
 * @property {Record<string, number>[]} seats
 * @property {number} moon
 * @property {number[]} points
 * @property {number[]} totals
 * @property {number[]} standings
 * @property {number[]} waiting
 */

/**
 * A `state` message once completed (see table/protocol.js): everything is there.
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {Table} table
 * @property {number} [you]
 * @property {View | null} [view]
 * @property {LastTrick | null} last_trick
 * @property {HandRound[]} hand_rounds
 * @property {number[]} winners
 * @property {number | null} [deadline]
 * @property {HandEnd | null} [hand_end]
 */

/**
 * A message of the websocket as it arrives: a state may leave out what the connection has.
 * @typedef {{type: string, message?: string} & Partial<StateMessage> & {view?: (Omit<View, "tricks"> & {tricks?: Trick[]}) | null}} Message
 */

/**
 * A preset the server offers (GET /api/options).
 * @typedef {object} Preset
 * @property {string} name
 * @property {string} title
 * @property {number} min_players
 * @property {number} max_players
 * @property {number} default_players
 * @property {{name: string, swappable?: boolean}[]} hands
 * @property {boolean} toppings
 */

/**
 * The answer of GET /api/options.
 * @typedef {object} Options
 * @property {Preset[]} presets
 * @property {{name: string, text?: string}[]} toppings
 * @property {Record<string, {id: string, name: string}[]>} swaps
 * @property {string[]} [bots]
 */

/**
 * A hand of a salad-record/1.
 * @typedef {object} RecordHand
 * @property {number} number
 * @property {string} round
 * @property {number} dealer
 * @property {string[][]} deal
 * @property {Trick[]} tricks
 * @property {number[] | null} [points]
 * @property {string | null} [trump]
 * @property {unknown} [passes]
 */

/**
 * A game record (salad-record/1) as the replay page reads it.
 * @typedef {object} GameRecord
 * @property {{name?: string}[]} players
 * @property {RecordHand[]} hands
 * @property {number[]} totals
 * @property {number[]} [winners]
 */

export {};
