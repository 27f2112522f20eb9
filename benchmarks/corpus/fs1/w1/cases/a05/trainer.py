import torch
import torch.nn.functional as F

from rewards import unigram_f1


class SelfCriticalTrainer:
    """Sequence-level fine-tuning: sampled summaries are rewarded against a greedy baseline."""

    def __init__(self, model, lr=1e-4, max_new_tokens=8):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.max_new_tokens = max_new_tokens

    def sample(self, input_ids, attention_mask, greedy):
        return self.model.generate(
            input_ids=input_ids,
            attention_mask=attention_mask,
            do_sample=not greedy,
            max_new_tokens=self.max_new_tokens,
            return_dict_in_generate=True,
            output_logits=True,
        )

    def sequence_log_probs(self, batch, out):
        logits = torch.stack(out.logits, dim=1)
        tokens = out.sequences[:, 1:]
        logp = F.log_softmax(logits, dim=-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
        mask = (tokens != self.model.config.pad_token_id).float()
        return (logp * mask).sum(1) / mask.sum(1).clamp_min(1.0)

    def step(self, batch):
        self.model.train()
        sampled = self.sample(batch["input_ids"], batch["attention_mask"], greedy=False)
        with torch.no_grad():
            greedy = self.sample(batch["input_ids"], batch["attention_mask"], greedy=True)
        reward = unigram_f1(sampled.sequences, batch["labels"])
        baseline = unigram_f1(greedy.sequences, batch["labels"])
        log_probs = self.sequence_log_probs(batch, sampled)
        loss = -((reward - baseline) * log_probs).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), reward.mean().item()
