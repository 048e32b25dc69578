"""Coordinates: where a logged action points, in the model's space and on a screenshot's pixels."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

# Fara's model sees the 1440x900 viewport resized to this; logged coordinates are in this space.
MODEL_SIZE = (1428, 896)


class Point(BaseModel):
    """A position in a screenshot's PNG pixel space."""

    model_config = ConfigDict(frozen=True)

    x: float
    y: float


class Scaling(BaseModel):
    """How a logged (model-space) coordinate maps onto a screenshot's pixels."""

    model_config = ConfigDict(frozen=True)

    model_width: int
    model_height: int
    png_width: int
    png_height: int

    def to_png(self, x: float, y: float) -> Point:
        return Point(x=x * self.png_width / self.model_width, y=y * self.png_height / self.model_height)

    def __str__(self) -> str:
        return f"model {self.model_width}x{self.model_height} -> PNG {self.png_width}x{self.png_height}"
