import compat  # noqa: F401
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from eagle import EagleSpeculator

EAGLE_CONFIG = {
    "eagle_ttt_steps": 2,
    "eagle_mix_hidden_states": True,
    "eagle_mix_ratio": 0.5,
}

TRAIN_ARGS = {"lr": 1e-3, "steps": 3, "batch_size": 2, "seq_len": 16}


def build_base_model():
    config = LlamaConfig(
        vocab_size=128,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    return LlamaForCausalLM(config).eval()


def main():
    torch.manual_seed(0)
    model = EagleSpeculator(build_base_model(), EAGLE_CONFIG)
    model.eagle_module.train()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=TRAIN_ARGS["lr"])

    for step in range(TRAIN_ARGS["steps"]):
        input_ids = torch.randint(0, 128, (TRAIN_ARGS["batch_size"], TRAIN_ARGS["seq_len"]))
        loss = model(input_ids)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
