import torch
import torch.nn.functional as F

from float8_linear import convert_to_float8_training
from model import Regressor
from recipes import recipe_from_name

config = {
    "seed": 0,
    "steps": 5,
    "batch_size": 8,
    "seq_len": 12,
    "lr": 1e-3,
    "float8_recipe": "fp8_fwd_only",
    "autocast_dtype": torch.bfloat16,
}


def module_filter_fn(mod, fqn):
    return "ffn" in fqn and mod.in_features % 16 == 0 and mod.out_features % 16 == 0


def main():
    torch.manual_seed(config["seed"])
    model = Regressor()
    recipe = recipe_from_name(config["float8_recipe"])
    convert_to_float8_training(model, recipe, module_filter_fn=module_filter_fn)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])

    for step in range(config["steps"]):
        x = torch.randn(config["batch_size"], config["seq_len"], 16)
        y = x.sum(dim=(1, 2)) * 0.05
        with torch.autocast("cpu", dtype=config["autocast_dtype"]):
            pred = model(x)
            loss = F.mse_loss(pred.float(), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
