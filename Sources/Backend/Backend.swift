// The one import for embedders: the player core and every feature target, re-exported.
@_exported import BackendCore
@_exported import BackendQueue
@_exported import BackendAdaptive
@_exported import BackendWindow
@_exported import BackendThumbnails
@_exported import BackendCache
@_exported import BackendTracks
@_exported import BackendResume
@_exported import BackendOSD
@_exported import BackendChapters
@_exported import BackendTags
@_exported import BackendMPRIS
@_exported import BackendCast
@_exported import BackendSync
