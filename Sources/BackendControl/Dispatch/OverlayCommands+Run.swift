import Backend

/// Drawn subtitles and the on-screen display on the console and keys:
/// `sub-visibility [yes|no|toggle]` (key `v`) and `osd [text]` (key `o`). Parsing is pure; running
/// is on the ``PlayerControl`` actor like the other commands.
extension OverlayCommands {
    /// Runs `sub-visibility` or `osd`.
    public static func execute(_ command: ConsoleCommand, player: Player) -> CommandOutcome {
        switch command {
        case .subVisibility(let wanted):
            let visible = wanted ?? !player.subtitleStyle.visible
            player.setSubtitlesVisible(visible)
            let drawn = player.subtitlesDrawn ? "" : " (not drawn: no video window)"
            return CommandOutcome(text: [visible ? "Subtitles shown\(drawn)" : "Subtitles hidden\(drawn)"])
        case .osd(let text):
            player.showOSD(message: text, progress: text == nil)
            return CommandOutcome(text: [])
        default:
            return .success
        }
    }
}
