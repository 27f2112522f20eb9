import compat  # noqa: F401
import torch
from transformers import OPTConfig, OPTForCausalLM

from data import get_calibration
from sparsellm import FFNPruner, collect_ffn_io

CFG = {"sparsity": 0.5, "iters": 2, "chunk": 32, "alpha": 5.0, "beta": 5.0,
       "s_lr": 0.1, "nsamples": 4, "seqlen": 16, "seed": 0}


def main():
    torch.manual_seed(CFG["seed"])
    config = OPTConfig(vocab_size=256, hidden_size=64, num_hidden_layers=2, ffn_dim=128,
                       num_attention_heads=4, max_position_embeddings=64,
                       word_embed_proj_dim=64)
    model = OPTForCausalLM(config).eval()
    samples = get_calibration(config.vocab_size, CFG["nsamples"], CFG["seqlen"], CFG["seed"])
    for i, layer in enumerate(model.model.decoder.layers):
        x, y = collect_ffn_io(model, i, samples)
        pruner = FFNPruner(layer.fc1, layer.fc2, CFG)
        pruner.prune(x, y)
        sparsity = (layer.fc1.weight == 0).float().mean().item()
        print(f"layer {i} fc1 sparsity {sparsity:.2f}")


if __name__ == "__main__":
    main()
