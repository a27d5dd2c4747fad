import ZaoanCore

/// What a channel tells the one it hands lines to (a `Session`). What the channel needs to
/// know of it in turn, the session sets on the channel (`intake`, `watching`).
protocol ChannelHandler: AnyObject {
    /// One complete line (or one too long). Returns whether to take the next line now.
    func take(_ frame: LineFramer.Frame, from channel: Channel) -> Bool
    /// After a read or a resume took what it could: decide whether to close.
    func linesTaken(by channel: Channel)
    /// At the end of the loop turn in which the channel was closed.
    func channelClosed(_ channel: Channel)
}
