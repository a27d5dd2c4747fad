import ZaoanCore

/// What a channel tells the one it hands lines to (a `Session`), and asks it: the session
/// alone keeps the protocol's state, and the channel reads what it needs of it when it needs it.
protocol ChannelHandler: AnyObject {
    /// Whether lines are taken now, held back, or none any more.
    var intake: Channel.Intake { get }
    /// A watch or event stream is open: no time limit runs while output keeps up.
    var isWatching: Bool { get }
    /// One complete line (or one too long). Returns whether to take the next line now.
    func take(_ frame: LineFramer.Frame, from channel: Channel) -> Bool
    /// After a read or a resume took what it could: decide whether to close.
    func linesTaken(by channel: Channel)
    /// At the end of the loop turn in which the channel was closed.
    func channelClosed(_ channel: Channel)
}
