import torch

from policy import CTMPolicy

CFG = {
    "obs_dim": 10,
    "act_dim": 2,
    "horizon": 8,
    "t_min": 0.002,
    "t_max": 80.0,
    "delta": 0.05,
    "losses": {"ctm": 1.0, "dsm": 1.0},
    "lr": 1e-4,
    "ema_decay": 0.99,
    "steps": 20,
    "batch_size": 32,
}


def sample_batch(cfg):
    obs = torch.randn(cfg["batch_size"], cfg["obs_dim"])
    traj = torch.tanh(obs[:, None, :2] + 0.1 * torch.randn(cfg["batch_size"], cfg["horizon"], 2))
    return obs, traj


def main(cfg):
    torch.manual_seed(0)
    policy = CTMPolicy(cfg)
    optimizer = torch.optim.AdamW(policy.model.parameters(), lr=cfg["lr"], weight_decay=1e-6)
    for step in range(cfg["steps"]):
        obs, traj = sample_batch(cfg)
        losses = policy.compute_loss(obs, traj)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        policy.update_ema(cfg["ema_decay"])
        if step % 5 == 0:
            print(f"step {step}: " + " ".join(f"{k} {v.item():.5f}" for k, v in losses.items()))
    return policy


if __name__ == "__main__":
    policy = main(CFG)
