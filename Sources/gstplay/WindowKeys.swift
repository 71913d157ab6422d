import Backend

/// Keys typed into the video window: the Backend reports them as X keysym names
/// (``Backend/WindowEvent/key(_:)``, from `GstNavigation`); they do what the same key does
/// on the terminal. The mouse acts as keys too, by mpv's names: `MBTN_LEFT`,
/// `MBTN_LEFT_DBL`, `MBTN_MID`, `MBTN_RIGHT`, `WHEEL_UP`, `WHEEL_DOWN` (bound in the input.conf).
/// Pure; any thread.
enum WindowKeys {
    /// The terminal ``Key`` a window event acts as, nil for events that are no key (fullscreen
    /// changes, the window closing, other buttons).
    static func key(for event: WindowEvent) -> Key? {
        switch event {
        case .key(let name): return key(forKeysym: name)
        case .clicked(button: 1, count: 1): return .named("MBTN_LEFT")
        case .clicked(button: 1, count: 2): return .named("MBTN_LEFT_DBL")
        case .clicked(button: 2, count: 1): return .named("MBTN_MID")
        case .clicked(button: 3, count: 1): return .named("MBTN_RIGHT")
        case .scrolled(_, let deltaY) where deltaY > 0: return .named("WHEEL_UP")
        case .scrolled(_, let deltaY) where deltaY < 0: return .named("WHEEL_DOWN")
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
        case "Return", "KP_Enter": return .named("ENTER")
        case "Escape": return .named("ESC")
        case "Tab": return .named("TAB")
        case "BackSpace": return .named("BS")
        case "Delete", "KP_Delete": return .named("DEL")
        case "Insert", "KP_Insert": return .named("INS")
        case "Home", "KP_Home": return .named("HOME")
        case "End", "KP_End": return .named("END")
        case "numbersign": return .character("#")
        default:
            if let symbol = punctuation[name] { return .character(symbol) }
            if name.count <= 3, name.first == "F", let number = Int(name.dropFirst()), (1...12).contains(number) { return .named(name) }
            // Letters and digits are their own names ("q", "f", "9").
            guard name.count == 1, let character = name.first, character.isASCII, character.isLetter || character.isNumber else { return nil }
            return .character(character)
        }
    }

    /// X keysym names of the other printable ASCII symbols.
    private static let punctuation: [String: Character] = [
        "exclam": "!", "quotedbl": "\"", "dollar": "$", "percent": "%", "ampersand": "&", "apostrophe": "'",
        "parenleft": "(", "parenright": ")", "asterisk": "*", "comma": ",", "period": ".", "slash": "/",
        "colon": ":", "semicolon": ";", "at": "@", "backslash": "\\", "asciicircum": "^", "underscore": "_",
        "grave": "`", "braceleft": "{", "bar": "|", "braceright": "}", "asciitilde": "~",
    ]
}
