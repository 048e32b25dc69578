"""Coordinates: where a logged action points, in the model's space and on a screenshot's pixels."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

# Fara's model sees the 1440x900 viewport resized to this; logged coordinates are in this space.
MODEL_SIZE = (1428, 896)


class Point(BaseModel):
    """A position in a screenshot's PNG pixel space."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    x: float
    """Pixels from the screenshot's left edge (fractional: scaled from the model's space)."""
    y: float
    """Pixels from the screenshot's top edge (fractional: scaled from the model's space)."""


class Scaling(BaseModel):
    """How a logged (model-space) coordinate maps onto a screenshot's pixels."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_width: int
    """Width of the image the model saw, in pixels (`MODEL_SIZE[0]`, 1428 for Fara)."""
    model_height: int
    """Height of the image the model saw, in pixels (`MODEL_SIZE[1]`, 896 for Fara)."""
    png_width: int
    """Width of the screenshot PNG, in pixels, from its header (1440 in real runs)."""
    png_height: int
    """Height of the screenshot PNG, in pixels, from its header (900 in real runs)."""

    def to_png(self, x: float, y: float) -> Point:
        """The point in the screenshot's pixels of a coordinate logged in the model's space."""
        return Point(x=x * self.png_width / self.model_width, y=y * self.png_height / self.model_height)

    def __str__(self) -> str:
        return f"model {self.model_width}x{self.model_height} -> PNG {self.png_width}x{self.png_height}"
