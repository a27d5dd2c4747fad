/// One account (uid): what it holds of the service over all its connections. Its answers
/// left unread, which `OutputLimits.perAccount` bounds: each of its channels adds what it
/// queues and takes off what it writes or drops (`Channel.settleAccount`). And its loop time
/// (`TurnBudget`): what it spent in the part of a turn being counted, and its connections
/// waiting for a later part. The entry goes when the account's last connection does.
final class Account {
    let uid: Int64
    /// Bytes queued and not yet written, on all the account's connections.
    var unread = 0
    /// Connections of the account open now.
    var channels = 0
    /// Loop time spent in part `part` of a turn (`TurnBudget`); a later part starts at 0.
    var spent = 0.0
    var part = 0
    /// Connections waiting for a later part of the turn, oldest first (`TurnBudget.wait`).
    var waiting: [Channel] = []

    init(uid: Int64) { self.uid = uid }
}

/// Every account's `Account`, by uid.
struct Accounts {
    private var byUID: [Int64: Account] = [:]

    /// The account's entry, for a new connection of it.
    mutating func join(_ uid: Int64) -> Account {
        let account = byUID[uid] ?? Account(uid: uid)
        byUID[uid] = account
        account.channels += 1
        return account
    }

    /// A connection of the account closed (its output already dropped).
    mutating func leave(_ account: Account) {
        account.channels -= 1
        if account.channels == 0 { byUID[account.uid] = nil }
    }

    /// All accounts' unread answers together.
    var unread: Int { byUID.values.reduce(0) { $0 + $1.unread } }
}
