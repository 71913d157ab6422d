import BackendCore

/// Sync on ``Player``: the sync feature's state, read from its snapshot section (one lock, any
/// thread). A player without a ``SyncFeature`` has none.
extension Player {
    /// The sync state (role, leader, lock, the clock's offset and round trip, the session in
    /// force), nil without a ``SyncFeature``. Any thread.
    public var syncStatus: SyncSnapshot? { snapshot.features[SyncSnapshot.self] }
}

extension SyncSnapshot {
    /// Whether this player follows a leader (its transport commands go to the leader).
    public var isFollower: Bool { role == "follower" }

    /// What a follower answers to a transport command of its own (play, pause, seek, rate,
    /// stop, another item), without the `gstplay:` prefix: `following HOST:PORT: transport
    /// commands go to the leader`. Nil for a leader.
    public var transportRefusal: String? { isFollower ? SyncFollower.refusal(leader: leader) : nil }
}
