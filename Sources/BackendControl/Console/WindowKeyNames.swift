import Backend

/// Keys typed into a video window, as input.conf key names (``KeyName``), so they do what the
/// same key does on gstplay's terminal (``InputBindings/binding(forKeyNamed:)``): the Backend
/// reports keys as X keysym names (`Backend/WindowEvent/key(_:)`, from `GstNavigation`). The
/// mouse acts as keys too, by mpv's names: `MBTN_LEFT`, `MBTN_LEFT_DBL`, `MBTN_MID`,
/// `MBTN_RIGHT`, `WHEEL_UP`, `WHEEL_DOWN` (bound in the input.conf). Pure; any thread.
public enum WindowKeyNames {
    /// The canonical key name a window event acts as, nil for events that are no key
    /// (fullscreen changes, the window closing, other buttons).
    public static func name(for event: WindowEvent) -> String? {
        switch event {
        case .key(let keysym): return name(forKeysym: keysym)
        case .clicked(button: 1, count: 1): return "MBTN_LEFT"
        case .clicked(button: 1, count: 2): return "MBTN_LEFT_DBL"
        case .clicked(button: 2, count: 1): return "MBTN_MID"
        case .clicked(button: 3, count: 1): return "MBTN_RIGHT"
        case .scrolled(_, let deltaY) where deltaY > 0: return "WHEEL_UP"
        case .scrolled(_, let deltaY) where deltaY < 0: return "WHEEL_DOWN"
        default: return nil
        }
    }

    /// The canonical key name for an X keysym name, nil for keys without a binding.
    public static func name(forKeysym name: String) -> String? {
        switch name {
        case "Left", "KP_Left": return "LEFT"
        case "Right", "KP_Right": return "RIGHT"
        case "Up", "KP_Up": return "UP"
        case "Down", "KP_Down": return "DOWN"
        case "space": return "SPACE"
        case "plus", "KP_Add": return "PLUS"
        case "minus", "KP_Subtract": return "-"
        case "equal": return "="
        case "question": return "?"
        case "less": return "<"
        case "greater": return ">"
        case "Next", "Page_Down", "KP_Next", "KP_Page_Down": return "PGDWN"
        case "Prior", "Page_Up", "KP_Prior", "KP_Page_Up": return "PGUP"
        case "bracketright": return "]"
        case "bracketleft": return "["
        case "period": return "."
        case "comma": return ","
        case "Return", "KP_Enter": return "ENTER"
        case "Escape": return "ESC"
        case "Tab": return "TAB"
        case "BackSpace": return "BS"
        case "Delete", "KP_Delete": return "DEL"
        case "Insert", "KP_Insert": return "INS"
        case "Home", "KP_Home": return "HOME"
        case "End", "KP_End": return "END"
        case "numbersign": return "SHARP"
        default:
            if let symbol = punctuation[name] { return String(symbol) }
            if name.count <= 3, name.first == "F", let number = Int(name.dropFirst()), (1...12).contains(number) { return name }
            // Letters and digits are their own names ("q", "f", "9").
            guard name.count == 1, let character = name.first, character.isASCII, character.isLetter || character.isNumber else { return nil }
            return name
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
