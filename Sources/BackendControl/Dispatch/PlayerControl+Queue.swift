import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Running the queue commands and `next`/`prev`/`load` against the Backend's queue
/// (``Player/currentQueue()`` and the `Player+Queue` calls). Each first awaits the commands
/// before it (without blocking a thread), so a reply always reflects them, and awaits its own
/// before replying (``PlayerControl/commandsRan()``), so the inputs after it see the
/// Backend's new load and current item; index errors come back as one line.
///
/// **Thread:** the ``PlayerControl`` actor.
extension PlayerControl {
    /// `next`, `prev`, `load <location>`.
    func navigate(_ command: ConsoleCommand) async -> CommandOutcome {
        let queue = await player.currentQueue()
        switch command {
        case .next:
            guard !queue.items.isEmpty else { return .failure("next: the playlist is empty") }
            guard queue.nextIndex != nil else { return .failure("next: already at the last item") }
            player.advanceToNextItem()
        case .prev:
            guard !queue.items.isEmpty else { return .failure("prev: the playlist is empty") }
            guard queue.previousIndex != nil else { return .failure("prev: already at the first item") }
            player.returnToPreviousItem()
        case .load(let location):
            let uri: String
            do {
                uri = try MediaLocation.uri(for: location)
            } catch {
                return .failure("load: \(error.message)")
            }
            names[uri] = location
            player.playNow(prepared(QueueItem(uri: uri)))
        default:
            break
        }
        await commandsRan()
        return .success
    }

    /// `item` as a command queues it: with its resume position (``resumed(_:)``), with resume on.
    func prepared(_ item: QueueItem) -> QueueItem {
        resumed(item)
    }

    /// One queue command.
    public func execute(_ command: QueueConsoleCommand) async -> CommandOutcome {
        let queue = await player.currentQueue()                    // also brings the index checks up to date
        do {
            switch command {
            case .list:
                return playlistOutcome(queue)
            case .save(let path):
                let items = queue.items
                guard !items.isEmpty else { return .failure("playlist save: the playlist is empty") }
                do {
                    try PlaylistFile.saveM3U(items, to: path)
                } catch {
                    return .failure("playlist save: \(error.description)")
                }
                return CommandOutcome(text: ["playlist: saved \(items.count) item\(items.count == 1 ? "" : "s") to \(path)"])
            case .jump(let index):
                try player.jumpInQueue(to: index)
            case .remove(let index):
                try player.removeFromQueue(at: index)
            case .move(let from, let to):
                try player.moveInQueue(from: from, to: to)
            case .clear:
                player.clearQueue()
            case .shuffle(let on):
                // Turning it on draws a new order; asking again while on keeps the current pass.
                player.setShuffled(on, seed: on && !queue.shuffled ? UInt64.random(in: 0 ... .max) : nil)
            case .loop(let mode):
                player.setLoopMode(mode)
            }
        } catch {
            return .failure("\(command.name): \(error.description)")
        }
        await commandsRan()
        return .success
    }

    /// The `playlist` answer: a header (with the total of the known durations) and one line per
    /// item (`>` marks the current one; its title — the media's tag, else the playlist file's —
    /// and its duration once known; `unplayable` when the discoverer found it so), or the
    /// `playlist` event's fields with the items' details as JSON data.
    public func playlistOutcome(_ queue: QueueSnapshot) -> CommandOutcome {
        let count = queue.items.isEmpty ? "empty" : "\(queue.items.count) item\(queue.items.count == 1 ? "" : "s")"
        var header = "playlist: \(count), loop \(queue.loop.rawValue), shuffle \(queue.shuffled ? "on" : "off"), gapless \(queue.gapless ? "on" : "off")"
        if queue.knownDurationCount > 0 {
            let unknown = queue.items.count - queue.knownDurationCount
            header += ", total \(queue.totalDuration.formatted())" + (unknown > 0 ? " (\(unknown) unknown)" : "")
        }
        let lines = queue.items.enumerated().map { index, item in
            let name = names.name(of: item.uri)
            var line = "\(index == queue.currentIndex ? ">" : " ") \(index): " + (item.knownTitle.map { "\($0) (\(name))" } ?? name)
            if let duration = item.knownDuration { line += "  \(duration.formatted())" }
            if item.info?.isPlayable == false { line += "  unplayable" }
            return line
        }
        return CommandOutcome(data: .playlist(WireEvents.Playlist(queue, detailed: true)), text: [header] + lines)
    }
}
