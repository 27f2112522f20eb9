import torch
import torch.nn.functional as F


class PPOTrainer:
    def __init__(self, args, policy, optimizer, accelerator):
        self.args = args
        self.policy = policy
        self.optimizer = optimizer
        self.accelerator = accelerator

    @torch.no_grad()
    def rollout(self, queries):
        logits, values = self.policy(queries)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        rewards = (actions == queries.argmax(dim=-1) % logits.size(-1)).float()
        advantages = rewards - values.squeeze(-1)
        returns = rewards
        return {
            "queries": queries,
            "actions": actions,
            "logprobs": dist.log_prob(actions),
            "advantages": (advantages - advantages.mean()) / (advantages.std() + 1e-8),
            "returns": returns,
        }

    def compute_loss(self, batch):
        logits, values = self.policy(batch["queries"])
        dist = torch.distributions.Categorical(logits=logits)
        logprobs = dist.log_prob(batch["actions"])
        ratio = torch.exp(logprobs - batch["logprobs"])
        pg_losses = -batch["advantages"] * ratio
        pg_losses2 = -batch["advantages"] * torch.clamp(
            ratio, 1.0 - self.args["cliprange"], 1.0 + self.args["cliprange"])
        pg_loss = torch.max(pg_losses, pg_losses2).mean()
        vf_loss = F.mse_loss(values.squeeze(-1), batch["returns"])
        return pg_loss + self.args["vf_coef"] * vf_loss

    def minibatches(self, rollouts):
        size = self.args["step_batch_size"]
        n = rollouts["queries"].size(0)
        for start in range(0, n, size):
            yield {k: v[start:start + size] for k, v in rollouts.items()}

    def step_with_rollouts(self, rollouts):
        losses = []
        for _ in range(self.args["noptepochs"]):
            for batch in self.minibatches(rollouts):
                with self.accelerator.accumulate(self.policy):
                    loss = self.compute_loss(batch)
                    self.accelerator.backward(loss)
                    if self.accelerator.sync_gradients:
                        self.accelerator.clip_grad_norm_(self.policy.parameters(), self.args["max_grad_norm"])
                    self.optimizer.step()
                    self.policy.zero_grad(set_to_none=True)
                losses.append(loss.item())
        return sum(losses) / len(losses)
