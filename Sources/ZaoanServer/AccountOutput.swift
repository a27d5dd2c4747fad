/// The answers one account (uid) has left unread, over all its connections: what
/// `OutputLimits.perAccount` bounds. Each of the account's channels adds what it queues and
/// takes off what it writes or drops (`Channel.settleAccount`); the entry goes when the
/// account's last connection does.
final class AccountOutput {
    let uid: Int64
    /// Bytes queued and not yet written, on all the account's connections.
    var unread = 0
    /// Connections of the account open now.
    var channels = 0

    init(uid: Int64) { self.uid = uid }
}

/// Every account's `AccountOutput`, by uid.
struct AccountOutputs {
    private var byUID: [Int64: AccountOutput] = [:]

    /// The account's ledger, for a new connection of it.
    mutating func join(_ uid: Int64) -> AccountOutput {
        let account = byUID[uid] ?? AccountOutput(uid: uid)
        byUID[uid] = account
        account.channels += 1
        return account
    }

    /// A connection of the account closed (its output already dropped).
    mutating func leave(_ account: AccountOutput) {
        account.channels -= 1
        if account.channels == 0 { byUID[account.uid] = nil }
    }

    /// All accounts' unread answers together.
    var unread: Int { byUID.values.reduce(0) { $0 + $1.unread } }
}
