import torch
import torch.nn.functional as F

from networks import CIC, Encoder


class CICAgent:
    def __init__(self, obs_shape, skill_dim, lr=1e-4, temperature=0.5):
        self.skill_dim = skill_dim
        self.temperature = temperature
        self.encoder = Encoder(obs_shape)
        self.cic = CIC(self.encoder.repr_dim, skill_dim)
        self.encoder_opt = torch.optim.Adam(self.encoder.parameters(), lr=lr)
        self.cic_optimizer = torch.optim.Adam(self.cic.parameters(), lr=lr)

    def compute_cpc_loss(self, obs, next_obs, skill):
        query, key = self.cic(obs, next_obs, skill)
        query = F.normalize(query, dim=1)
        key = F.normalize(key, dim=1)
        logits = query @ key.T / self.temperature
        labels = torch.arange(logits.size(0))
        return F.cross_entropy(logits, labels)

    def update_cic(self, obs, skill, next_obs):
        loss = self.compute_cpc_loss(obs, next_obs, skill)
        self.cic_optimizer.zero_grad()
        self.encoder_opt.zero_grad()
        loss.backward()
        self.cic_optimizer.step()
        self.encoder_opt.step()
        return loss.item()

    def update(self, batch):
        obs, skill, next_obs = batch
        with torch.no_grad():
            obs = self.encoder(obs)
            next_obs = self.encoder(next_obs)
        return {"cic_loss": self.update_cic(obs, skill, next_obs)}
