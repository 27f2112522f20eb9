from dataclasses import dataclass


@dataclass
class TrainConfig:
    in_dim: int = 64
    widths: tuple = (128, 64, 32)
    batch_size: int = 32
    steps: int = 6
    lr: float = 1e-3
    grad_checkpointing: bool = True
    checkpoint_kwargs: dict = None

    def __post_init__(self):
        if self.checkpoint_kwargs is None:
            self.checkpoint_kwargs = {"use_reentrant": True}
