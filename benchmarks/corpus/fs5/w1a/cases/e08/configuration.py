from dataclasses import dataclass, field


def default_attn_config():
    return {
        "attn_type": "multihead_attention",
        "attn_pdrop": 0.0,
        "attn_impl": "torch",
        "prefix_lm": False,
        "softmax_scale": None,
    }


@dataclass
class MPTConfig:
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    expansion_ratio: int = 4
    max_seq_len: int = 64
    vocab_size: int = 128
    resid_pdrop: float = 0.0
    emb_pdrop: float = 0.0
    attn_config: dict = field(default_factory=default_attn_config)

    @classmethod
    def from_dict(cls, cfg):
        cfg = dict(cfg)
        attn = default_attn_config()
        attn.update(cfg.pop("attn_config", {}))
        return cls(attn_config=attn, **cfg)
