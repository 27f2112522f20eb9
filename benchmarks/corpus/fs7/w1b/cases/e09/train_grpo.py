import argparse

import torch
import torch.nn.functional as F

from model import MiniLM

LM_CONFIG = dict(vocab_size=64, dim=32, n_heads=4, n_layers=2, max_position=16)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--prompt_len", type=int, default=8)
    p.add_argument("--max_gen_len", type=int, default=12)
    p.add_argument("--num_generations", type=int, default=4)
    p.add_argument("--beta", type=float, default=0.02)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--steps", type=int, default=2)
    return p.parse_args()


def generate(model, prompts, max_new_tokens):
    seq = prompts
    for _ in range(max_new_tokens):
        logits = model(seq)[:, -1, :]
        nxt = torch.multinomial(F.softmax(logits, dim=-1), 1)
        seq = torch.cat([seq, nxt], dim=1)
    return seq


def reward_fn(completions):
    return (completions % 2 == 0).float().mean(dim=1)


def per_token_logps(model, seq, prompt_len):
    logits = model(seq)[:, prompt_len - 1:-1, :]
    targets = seq[:, prompt_len:]
    return F.log_softmax(logits, dim=-1).gather(2, targets.unsqueeze(-1)).squeeze(-1)


def grpo_step(args, model, ref_model, optimizer, prompts):
    prompts = prompts.repeat_interleave(args.num_generations, dim=0)
    model.eval()
    with torch.inference_mode():
        outputs = generate(model, prompts, args.max_gen_len)
    model.train()
    completions = outputs[:, args.prompt_len:].clone()
    rewards = reward_fn(completions)
    grouped = rewards.view(-1, args.num_generations)
    adv = (grouped - grouped.mean(1, keepdim=True)) / (grouped.std(1, keepdim=True) + 1e-4)
    adv = adv.view(-1, 1)

    seq = torch.cat([prompts, completions], dim=1)
    logps = per_token_logps(model, seq, args.prompt_len)
    with torch.no_grad():
        ref_logps = per_token_logps(ref_model, seq, args.prompt_len)
    kl = torch.exp(ref_logps - logps) - (ref_logps - logps) - 1
    loss = -(torch.exp(logps - logps.detach()) * adv - args.beta * kl).mean()

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), rewards.mean().item()


def main():
    args = parse_args()
    torch.manual_seed(0)
    model = MiniLM(LM_CONFIG)
    ref_model = MiniLM(LM_CONFIG)
    ref_model.load_state_dict(model.state_dict())
    ref_model.requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for step in range(args.steps):
        prompts = torch.randint(0, LM_CONFIG["vocab_size"], (2, args.prompt_len))
        loss, reward = grpo_step(args, model, ref_model, optimizer, prompts)
        print(f"step {step} loss {loss:.4f} reward {reward:.3f}")


if __name__ == "__main__":
    main()
