import TransvidCLI

TransvidCommand.main()
