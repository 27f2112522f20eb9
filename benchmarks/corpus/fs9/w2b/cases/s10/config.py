from dataclasses import dataclass


@dataclass
class SelfDistillationConfig:
    learning_rate: float = 5e-4
    max_steps: int = 6
    temperature: float = 2.0
    alpha: float = 0.5
    teacher_mode: str = "live"
    ema_decay: float = 0.99
    disable_dropout: bool = False
    logging_steps: int = 2
