import torch
import torch.nn.functional as F

from model import MoETransformer
from moe import update_expert_bias

MODEL_CFG = {
    "vocab": 128, "dim": 32, "n_head": 4, "n_layers": 2,
    "num_experts": 4, "top_k": 2, "activation_checkpoint": True,
}
TRAIN_CFG = {"seed": 0, "batch": 4, "seq_len": 16, "steps": 3, "lr": 3e-4}


def main():
    torch.manual_seed(TRAIN_CFG["seed"])
    model = MoETransformer(MODEL_CFG)
    optimizer = torch.optim.AdamW(model.parameters(), lr=TRAIN_CFG["lr"])
    for moe in model.moe_layers():
        moe.register_forward_hook(lambda module, args, output: update_expert_bias(module))

    model.train()
    for step in range(TRAIN_CFG["steps"]):
        tokens = torch.randint(0, MODEL_CFG["vocab"], (TRAIN_CFG["batch"], TRAIN_CFG["seq_len"] + 1))
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, MODEL_CFG["vocab"]), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
