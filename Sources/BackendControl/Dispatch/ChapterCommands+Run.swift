import Backend

/// The chapter console commands (`chapters`, `chapter N|next|prev`), the PgUp/PgDn and `[`/`]`
/// keys, the chapter table and notes. Runs on the ``PlayerControl`` actor like the other commands;
/// the parsing and formatting are pure.
extension ChapterCommands {
    /// Runs `chapters` or `chapter …`; `chapter` waits for the seek's landing.
    public static func execute(_ command: ConsoleCommand, player: Player) async -> CommandOutcome {
        switch command {
        case .chapters:
            let chapters = player.chapters
            guard !chapters.isEmpty else { return .failure("chapters: the media has no chapters") }
            let current = player.currentChapter?.index
            return CommandOutcome(data: .chapters(WireChapters.List(chapters, current: current)), text: table(chapters, current: current))
        case .chapter(let argument):
            do {
                let landing: ChapterLanding
                switch argument {
                case .index(let index): landing = try await player.seekAsync(toChapter: index)
                case .next: landing = try await player.nextChapterAsync()
                case .previous: landing = try await player.previousChapterAsync()
                }
                return CommandOutcome(data: .chapter(WireChapters.Landing(landing)),
                                                  text: ["Chapter \(describe(landing.chapter, of: player.chapters.count))"])
            } catch {
                return .failure("chapter: \(error.message)")
            }
        default:
            return .success
        }
    }

    /// The keys: the next or previous chapter, without waiting for the landing; errors as lines.
    public static func step(forward: Bool, player: Player) -> CommandOutcome {
        do throws(PlayerError) {
            if forward { try player.nextChapter() } else { try player.previousChapter() }
            return .success
        } catch {
            return .failure("chapter: \(error.message)")
        }
    }

    // MARK: Formatting

    /// `3/5: Middle, part one` (1-based, as players show it; pure).
    public static func describe(_ chapter: Chapter, of count: Int) -> String {
        "\(chapter.index + 1)/\(count): \(TerminalText.escaped(chapter.displayTitle))"
    }

    /// The chapter table: `* 2  0:00:02-0:00:03    Middle, part one`, indented by depth (pure).
    public static func table(_ chapters: [Chapter], current: Int?) -> [String] {
        chapters.map { chapter in
            let span = chapter.start.formatted() + "-" + (chapter.end?.formatted() ?? "?")
            let language = chapter.language.map { " [\($0)]" } ?? ""
            return (chapter.index == current ? "* " : "  ") + "\(chapter.index)".padded(toLength: 3) + span.padded(toLength: 17)
                + String(repeating: "  ", count: chapter.depth) + TerminalText.escaped(chapter.displayTitle) + language
        }
    }

    /// The note for a chapters event in text mode: `Chapters: 5` / `Chapter 3/5: Middle, part one`.
    public static func note(for event: ChaptersEvent, count: Int) -> String? {
        switch event {
        case .chaptersChanged(let chapters): return chapters.isEmpty ? nil : "Chapters: \(chapters.count) (list them with 'chapters')"
        case .chapterChanged(let chapter): return chapter.map { "Chapter \(describe($0, of: count))" }
        }
    }
}
