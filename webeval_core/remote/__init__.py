"""Remote roots: runs kept in object storage (Azure Blob, S3, GCS), read through fsspec.

Owns the URL of a remote root and the store that reads it (stores), the mirror's record of the
remote listing (manifest) and the local mirror every reader works on (mirror: `open_root`, the
screenshots fetched when a view reads them, the bound on fetched images, the few folders a
cluster's worker scores (`fetch_folders`), the one write back, `upload`, for
`score --write-remote`). Above reading, below runs: the index and the app see a local folder.

May import: `webeval_core.reading`, `webeval_core.support.diagnostics` (and fsspec with the store packages).
"""

from typing import TYPE_CHECKING

from webeval_core.support.exports import lazy_getattr

__all__ = [
    "REMOTE_SCHEMES",
    "OpenedRoot",
    "RemoteLocation",
    "RemoteReadError",
    "RemoteUnavailableError",
    "fetch_folders",
    "filesystem_class",
    "image_cache_bytes",
    "is_remote",
    "mask_secrets",
    "mirror_folder",
    "open_root",
    "parse_location",
    "remote_cache_dir",
    "store_writer",
    "upload",
]

if TYPE_CHECKING:
    from webeval_core.remote.mirror import (
        OpenedRoot,
        RemoteReadError,
        RemoteUnavailableError,
        fetch_folders,
        image_cache_bytes,
        mirror_folder,
        open_root,
        remote_cache_dir,
        upload,
    )
    from webeval_core.remote.publishing import store_writer
    from webeval_core.remote.stores import (
        REMOTE_SCHEMES,
        RemoteLocation,
        filesystem_class,
        is_remote,
        mask_secrets,
        parse_location,
    )
else:
    __getattr__ = lazy_getattr(__name__, __file__)
