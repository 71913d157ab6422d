import BackendCore
import CGStreamer
import CGUPnP
import GLibSupport

/// One SOAP action on a renderer's service (`gupnp_service_proxy_call_action_async`) with a
/// deadline: a `GCancellable` cancelled by a timer after `timeout`, so no call waits forever.
/// Arguments and results travel as strings (SOAP's text); results are read with
/// `gupnp_service_proxy_action_get_result_hash`, which also turns a SOAP fault into an error.
///
/// **Thread:** the loop thread (its default `GMainContext` runs GUPnP); the completion runs
/// there, exactly once, unless ``cancel()`` came first.
final class UPnPActionCall {
    /// Named results of a finished action.
    typealias Completion = (Result<[String: String], CastError>) -> Void

    private var completion: Completion?
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private var timer: TimerSource?
    private var timedOut = false
    private let resultNames: [String]
    /// The service called, held (`g_object_ref`) until the call is released.
    private let proxy: UnsafeMutablePointer<GUPnPServiceProxy>

    private init(proxy: UnsafeMutablePointer<GUPnPServiceProxy>, resultNames: [String], completion: @escaping Completion) {
        self.proxy = proxy
        self.resultNames = resultNames
        self.completion = completion
        cancellable = g_cancellable_new()
        g_object_ref(proxy)
    }

    deinit {
        g_object_unref(cancellable)
        g_object_unref(proxy)
    }

    /// Calls `action` on `proxy` with `arguments` (in order) and reads `results` from the answer.
    @discardableResult
    static func start(on proxy: UnsafeMutablePointer<GUPnPServiceProxy>, action: String,
                      arguments: [(String, String)], results: [String], timeout: Duration,
                      completion: @escaping Completion) -> UPnPActionCall {
        let call = UPnPActionCall(proxy: proxy, resultNames: results, completion: completion)
        let request = makeAction(action, arguments: arguments)
        call.timer = TimerSource.onThreadDefaultContext(every: timeout) { [weak call] in
            call?.timedOut = true
            call?.timer = nil
            if let call { g_cancellable_cancel(call.cancellable) }
            return false
        }
        // The box (+1 on the call) is released in the callback, which GIO calls exactly once.
        let box = CallbackBox(call).retainedPointer
        gupnp_service_proxy_call_action_async(proxy, request, call.cancellable, { _, result, data in
            Unmanaged<CallbackBox<UPnPActionCall>>.fromOpaque(data!).takeRetainedValue().value.finish(result: result)
        }, box)
        gupnp_service_proxy_action_unref(request)   // the call's task holds its own reference
        return call
    }

    /// Drops the completion (it will not run) and cancels the request. Idempotent.
    func cancel() {
        completion = nil
        timer?.destroy()
        timer = nil
        g_cancellable_cancel(cancellable)
    }

    private func finish(result: OpaquePointer?) {
        timer?.destroy()
        timer = nil
        var error: UnsafeMutablePointer<GError>?
        // Borrowed (transfer none): the task holds the action until this callback returns.
        let action = gupnp_service_proxy_call_action_finish(proxy, result, &error)
        guard let completion else { if let error { g_error_free(error) }; return }
        self.completion = nil
        if let error {
            let mapped = GLibValues.castError(taking: error)
            return completion(.failure(timedOut ? .timeout : mapped))
        }
        guard let action else { return completion(.failure(.transport("no reply"))) }
        completion(Self.readResults(of: action, names: resultNames))
    }

    /// A new action with string arguments (`gupnp_service_proxy_action_new_from_list`, which copies them).
    private static func makeAction(_ name: String, arguments: [(String, String)]) -> OpaquePointer {
        var names: UnsafeMutablePointer<GList>?
        var values: UnsafeMutablePointer<GList>?
        for (key, text) in arguments {
            let value = UnsafeMutablePointer<GValue>.allocate(capacity: 1)
            value.initialize(to: GValue())
            g_value_init(value, GLibValues.stringType)
            g_value_set_string(value, text)
            names = g_list_append(names, g_strdup(key))
            values = g_list_append(values, value)
        }
        let action = gupnp_service_proxy_action_new_from_list(name, names, values)!
        g_list_free_full(names, g_free)
        var node = values
        while let current = node {
            let value = current.pointee.data.assumingMemoryBound(to: GValue.self)
            g_value_unset(value)
            value.deallocate()
            node = current.pointee.next
        }
        g_list_free(values)
        return action
    }

    /// The named results as strings; a SOAP fault becomes ``CastError/renderer(code:description:)``.
    private static func readResults(of action: OpaquePointer, names: [String]) -> Result<[String: String], CastError> {
        let table = g_hash_table_new(g_str_hash, g_str_equal)
        var slots: [(UnsafeMutablePointer<gchar>, UnsafeMutablePointer<GValue>)] = []
        for name in names {
            let value = UnsafeMutablePointer<GValue>.allocate(capacity: 1)
            value.initialize(to: GValue())
            g_value_init(value, GLibValues.stringType)
            let key = g_strdup(name)!
            g_hash_table_insert(table, key, value)
            slots.append((key, value))
        }
        defer {
            g_hash_table_unref(table)
            for (key, value) in slots { g_free(key); g_value_unset(value); value.deallocate() }
        }
        var error: UnsafeMutablePointer<GError>?
        guard gupnp_service_proxy_action_get_result_hash(action, table, &error) != 0, error == nil else {
            return .failure(error.map { GLibValues.castError(taking: $0) } ?? .transport("unreadable reply"))
        }
        var results: [String: String] = [:]
        for (key, value) in slots {
            results[String(cString: key)] = g_value_get_string(value).map { String(cString: $0) } ?? ""
        }
        return .success(results)
    }
}
