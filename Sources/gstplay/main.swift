import Backend
import Foundation

final class Printer: PlayerDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    func player(_ player: Player, didReceive event: PlayerEvent) {
        print(Date().timeIntervalSince1970, event)
        switch event { case .endOfStream, .error: done.signal() default: break }
    }
}
let p = Printer()
let player = Player(delegate: p)
player.load(CommandLine.arguments[1])
if CommandLine.arguments.count > 2 { player.seek(to: MediaTime(seconds: Double(CommandLine.arguments[2])!)) }
p.done.wait()
player.shutdown()
