import numpy as np
import torch

from agents import RNDAgent
from utils import make_train_data


CONFIG = {
    "NumEnv": 4,
    "NumStep": 32,
    "ObsDim": 16,
    "NumActions": 5,
    "Epoch": 2,
    "BatchSize": 32,
    "PPOEps": 0.1,
    "Entropy": 0.001,
    "UpdateProportion": 0.25,
    "MaxGradNorm": 0.5,
    "LearningRate": 1e-4,
    "ExtGamma": 0.999,
    "IntGamma": 0.99,
    "ExtCoef": 2.0,
    "IntCoef": 1.0,
    "NumRollouts": 3,
}


class ToyEnvs:
    """Vectorized random-walk environment with sparse extrinsic reward."""

    def __init__(self, n, obs_dim, n_actions, seed):
        self.g = torch.Generator().manual_seed(seed)
        self.proj = torch.randn(n_actions, obs_dim, generator=self.g)
        self.state = torch.randn(n, obs_dim, generator=self.g)

    def step(self, actions):
        self.state = 0.9 * self.state + self.proj[actions] + 0.1 * torch.randn(self.state.shape, generator=self.g)
        reward = (self.state[:, 0] > 3.0).float() * 10.0
        done = (torch.rand(self.state.size(0), generator=self.g) < 0.02).float()
        return self.state.clone(), reward, done


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    cfg = CONFIG
    envs = ToyEnvs(cfg["NumEnv"], cfg["ObsDim"], cfg["NumActions"], seed=1)
    agent = RNDAgent(cfg["ObsDim"], cfg["NumActions"], cfg)
    states = envs.state.clone()
    for rollout in range(cfg["NumRollouts"]):
        obs, next_obs, acts, rews, dones, v_ext, v_int, pols = [], [], [], [], [], [], [], []
        for _ in range(cfg["NumStep"]):
            a, ve, vi, pol = agent.get_action(states)
            nxt, r, d = envs.step(a)
            obs.append(states); next_obs.append(nxt); acts.append(a); rews.append(r); dones.append(d)
            v_ext.append(ve); v_int.append(vi); pols.append(pol)
            states = nxt
        _, ve, vi, _ = agent.get_action(states)
        v_ext.append(ve); v_int.append(vi)
        with torch.no_grad():
            p, t = agent.rnd(torch.stack(next_obs, 1))
            int_rew = (p - t).pow(2).sum(-1) / 2
        rew = torch.stack(rews, 1).numpy()
        done = torch.stack(dones, 1).numpy()
        ext_target, ext_adv = make_train_data(rew, done, torch.stack(v_ext, 1).numpy(), cfg["ExtGamma"], cfg["NumStep"], cfg["NumEnv"])
        int_target, int_adv = make_train_data(int_rew.numpy(), np.zeros_like(done), torch.stack(v_int, 1).numpy(), cfg["IntGamma"], cfg["NumStep"], cfg["NumEnv"])
        adv = torch.as_tensor(ext_adv * cfg["ExtCoef"] + int_adv * cfg["IntCoef"], dtype=torch.float32)
        agent.train_model(torch.stack(obs, 1).reshape(-1, cfg["ObsDim"]),
                          torch.as_tensor(ext_target, dtype=torch.float32),
                          torch.as_tensor(int_target, dtype=torch.float32),
                          torch.stack(acts, 1).reshape(-1),
                          adv,
                          torch.stack(next_obs, 1).reshape(-1, cfg["ObsDim"]),
                          torch.stack(pols, 1).reshape(-1, cfg["NumActions"]))
        print(f"rollout {rollout}: ext reward {rew.sum():.1f} int reward {int_rew.mean().item():.4f}")
    return agent


if __name__ == "__main__":
    agent = main()
