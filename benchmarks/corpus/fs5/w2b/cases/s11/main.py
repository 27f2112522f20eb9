import torch

from learner import SPrompts

ARGS = {
    "seed": 1993,
    "num_tasks": 3,
    "classes_per_task": 4,
    "epochs": 2,
    "lrate": 0.01,
    "weight_decay": 5e-4,
    "batch_size": 8,
    "batches_per_task": 3,
}


def make_task_stream(args):
    stream = []
    for t in range(args["num_tasks"]):
        batches = []
        for _ in range(args["batches_per_task"]):
            x = torch.randn(args["batch_size"], 3, 32, 32) + 0.5 * t
            y = torch.randint(0, args["classes_per_task"], (args["batch_size"],)) + t * args["classes_per_task"]
            batches.append((x, y))
        stream.append(batches)
    return stream


def main():
    torch.manual_seed(ARGS["seed"])
    learner = SPrompts(ARGS)
    for task_data in make_task_stream(ARGS):
        learner.incremental_train(task_data)
    return learner


if __name__ == "__main__":
    learner = main()
