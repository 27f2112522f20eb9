import compat  # noqa: F401

import torch
from transformers import GPT2Config, GPT2LMHeadModel

from losses import token_logprobs
from trainer import RLTrainer

CONFIG = {
    "lr": 1e-4,
    "weight_decay": 0.0,
    "max_grad_norm": 1e6,
    "rollout_batch_size": 8,
    "micro_batch_size": 2,
    "num_steps": 2,
    "seq_len": 12,
    "prompt_len": 4,
}


def build_policy():
    cfg = GPT2Config(
        vocab_size=64, n_positions=32, n_embd=32, n_layer=2, n_head=2,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=0, eos_token_id=0,
    )
    return GPT2LMHeadModel(cfg)


@torch.no_grad()
def collect_rollouts(policy, config, generator):
    b, t = config["rollout_batch_size"], config["seq_len"]
    input_ids = torch.randint(0, 64, (b, t), generator=generator)
    attention_mask = torch.ones(b, t, dtype=torch.long)
    response_mask = torch.zeros(b, t, dtype=torch.long)
    response_mask[:, config["prompt_len"]:] = 1
    rewards = (input_ids[:, config["prompt_len"]:] % 2 == 0).float().mean(-1)
    advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-6)
    old_logprobs = token_logprobs(policy, input_ids, attention_mask)
    return {
        "input_ids": input_ids,
        "attention_mask": attention_mask,
        "response_mask": response_mask,
        "advantages": advantages,
        "old_logprobs": old_logprobs,
    }


def split_microbatches(batch, micro_batch_size):
    n = batch["input_ids"].shape[0]
    return [
        {k: v[i:i + micro_batch_size] for k, v in batch.items()}
        for i in range(0, n, micro_batch_size)
    ]


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    policy = build_policy()
    trainer = RLTrainer(policy, CONFIG)
    for _ in range(CONFIG["num_steps"]):
        rollouts = collect_rollouts(policy, CONFIG, gen)
        microbatches = split_microbatches(rollouts, CONFIG["micro_batch_size"])
        losses = []
        for mb in microbatches:
            out = trainer.forward_backward(mb, len(microbatches))
            losses.append(out["loss"])
        info = trainer.optim_step()
        print(f"step {info['step']} loss {sum(losses) / len(losses):.4f} grad_norm {info['grad_norm']:.4f}")


if __name__ == "__main__":
    main()
