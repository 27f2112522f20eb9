from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    vocab_size: int = 64
    embed_dim: int = 32
    ffn_dim: int = 64
    num_heads: int = 4
    num_layers: int = 2
    max_epoch: int = 4
    batches_per_epoch: int = 5
    batch_size: int = 8
    seq_len: int = 12
    lr: float = 1e-3
    weight_decay: float = 0.01
    zero_grad_to_none: bool = False
    freeze_at_epoch: int = 2
    freeze_patterns: list = field(default_factory=lambda: ["fc1", "fc2"])
