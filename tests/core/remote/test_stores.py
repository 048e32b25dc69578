"""Remote root URLs: every scheme reaches fsspec's one code path, and credentials never show."""

from __future__ import annotations

import adlfs
import gcsfs
import pytest
import s3fs

from webeval_core.remote import filesystem_class, is_remote, mask_secrets, mirror_folder, parse_location
from webeval_core.remote.stores import open_filesystem, storage_options


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("az://runs/fara", adlfs.AzureBlobFileSystem),
        ("abfs://runs/fara", adlfs.AzureBlobFileSystem),
        ("s3://bucket/runs/fara", s3fs.S3FileSystem),
        ("gs://bucket/runs/fara", gcsfs.GCSFileSystem),
    ],
)
def test_each_scheme_reaches_its_fsspec_filesystem(url: str, expected: type) -> None:
    location = parse_location(url)
    assert is_remote(url)
    assert issubclass(filesystem_class(location), expected)
    assert location.name == "fara"
    assert mirror_folder(location) != mirror_folder(parse_location(url + "-other"))


def test_s3_opens_without_the_network_and_keeps_the_bucket_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-a-real-secret-value")
    fs, path = open_filesystem(parse_location("s3://bucket/runs/fara/"))
    assert isinstance(fs, s3fs.S3FileSystem)
    assert path == "bucket/runs/fara"
    assert storage_options("s3")["config_kwargs"]["retries"] == {"max_attempts": 2}


@pytest.mark.parametrize("text", ["/tmp/runs", "runs", "C:/runs", "file:///tmp/runs", "http://host/runs"])
def test_local_paths_and_other_urls_are_not_remote(text: str) -> None:
    assert not is_remote(text)


def test_an_unknown_scheme_is_refused_naming_the_url() -> None:
    with pytest.raises(ValueError, match="ftp://host/runs"):
        parse_location("ftp://host/runs")


def test_credentials_are_masked_in_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "c2VjcmV0LWtleS12YWx1ZQ=="
    connection = f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={secret};"
    monkeypatch.setenv("AZURE_STORAGE_CONNECTION_STRING", connection)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value-123")
    message = (
        f"failed with {connection} and AccountKey=other-key-xyz; https://a.blob/x?sv=1&sig=abcdef&se=2"
        " and aws-secret-value-123"
    )
    masked = mask_secrets(message)
    for leaked in (secret, "other-key-xyz", "abcdef", "aws-secret-value-123"):
        assert leaked not in masked
    assert "sig=***" in masked
