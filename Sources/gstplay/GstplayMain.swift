import Glibc

/// The process entry point, synchronous: like ArgumentParser's `main()`, through
/// ``CommandRouting`` (the one parse/run/exit path): usage errors exit with 2 (ArgumentParser uses
/// EX_USAGE, 64); help, version and completion scripts go to stdout with 0.
///
/// **Thread:** the main thread; never returns.
@main
enum GstplayMain {
    static func main() {
        Output.reopenClosedStandardDescriptors()
        GLibWarningFilter.install()
        CommandRouting.main(Array(CommandLine.arguments.dropFirst()))
    }
}
