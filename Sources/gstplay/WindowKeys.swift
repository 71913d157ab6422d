import Backend

/// Keys typed into the video window (issue #10): the Backend reports them as X keysym names
/// (``Backend/WindowEvent/key(_:)``, from `GstNavigation`); they do what the same key does
/// on the terminal. The mouse (issue 22) acts as keys too: a left click is space (pause),
/// a left double click is `f` (fullscreen), the wheel up/down is right/left (seek ±10 s).
/// Pure; any thread.
enum WindowKeys {
    /// The terminal ``Key`` a window event acts as, nil for events that are no key (fullscreen
    /// changes, the window closing, other buttons).
    static func key(for event: WindowEvent) -> Key? {
        switch event {
        case .key(let name): return key(forKeysym: name)
        case .clicked(button: 1, count: 1): return .character(" ")
        case .clicked(button: 1, count: 2): return .character("f")
        case .scrolled(_, let deltaY) where deltaY > 0: return .right
        case .scrolled(_, let deltaY) where deltaY < 0: return .left
        default: return nil
        }
    }

    /// The terminal ``Key`` for a keysym name, nil for keys without a binding.
    static func key(forKeysym name: String) -> Key? {
        switch name {
        case "Left", "KP_Left": return .left
        case "Right", "KP_Right": return .right
        case "Up", "KP_Up": return .up
        case "Down", "KP_Down": return .down
        case "space": return .character(" ")
        case "plus", "KP_Add": return .character("+")
        case "minus", "KP_Subtract": return .character("-")
        case "equal": return .character("=")
        case "question": return .character("?")
        case "less": return .character("<")
        case "greater": return .character(">")
        case "Next", "Page_Down", "KP_Next", "KP_Page_Down": return .pageDown
        case "Prior", "Page_Up", "KP_Prior", "KP_Page_Up": return .pageUp
        case "bracketright": return .character("]")
        case "bracketleft": return .character("[")
        case "period": return .character(".")
        case "comma": return .character(",")
        default:
            // Letters and digits are their own names ("q", "f", "9").
            guard name.count == 1, let character = name.first, character.isASCII, character.isLetter || character.isNumber else { return nil }
            return .character(character)
        }
    }
}
