import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM


class LoraLinear(nn.Module):
    def __init__(self, base, r, alpha, dropout):
        super().__init__()
        self.base = base
        self.scale = alpha / r
        self.drop = nn.Dropout(dropout)
        self.A = nn.Linear(base.in_features, r, bias=False)
        self.B = nn.Linear(r, base.out_features, bias=False)
        nn.init.normal_(self.A.weight, std=0.02)
        nn.init.zeros_(self.B.weight)

    def forward(self, x):
        return self.base(x) + self.B(self.A(self.drop(x))) * self.scale


def add_lora(model, cfg):
    for p in model.parameters():
        p.requires_grad_(False)
    for module in list(model.modules()):
        for name, child in list(module.named_children()):
            if name in cfg["target_modules"] and isinstance(child, nn.Linear):
                setattr(module, name, LoraLinear(child, cfg["r"], cfg["alpha"], cfg["dropout"]))
    return model


class DecoderEmbedder(nn.Module):
    def __init__(self, model_cfg, lora_cfg, pooling):
        super().__init__()
        self.encoder = add_lora(LlamaForCausalLM(LlamaConfig(**model_cfg)), lora_cfg)
        self.pooling = pooling
        self.gen_cfg = GenerationConfig(
            max_new_tokens=1, do_sample=False,
            pad_token_id=model_cfg["pad_token_id"], eos_token_id=model_cfg["eos_token_id"],
        )

    def encode_mean(self, batch):
        out = self.encoder(**batch, output_hidden_states=True)
        hidden = out.hidden_states[-1]
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        return (hidden * mask).sum(1) / mask.sum(1)

    def encode_prompt_eol(self, batch):
        hidden = self.encoder.generate(**batch, generation_config=self.gen_cfg, output_hidden_states=True, return_dict_in_generate=True).hidden_states[0]
        return hidden[-1][:, -1, :]

    def forward(self, batch):
        if self.pooling == "mean":
            reps = self.encode_mean(batch)
        elif self.pooling == "prompt_eol":
            reps = self.encode_prompt_eol(batch)
        else:
            raise ValueError(self.pooling)
        return F.normalize(reps, dim=-1)
